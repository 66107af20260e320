package io.tlogsim.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.tlogsim.journal.Journal;
import io.tlogsim.journal.JournalSettings;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.cluster.sharding.typed.ShardingMessageExtractor;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;

/**
 * A tlogsim cluster member: a node, which hosts run coordinators and components (role {@code node}), or a client that
 * submits a run and hosts nothing (role {@code client}). Pekko Cluster over Artery TLS (the cluster's keys, mutually
 * authenticated: {@link ClusterKeys}) with static seed nodes and the split-brain resolver; defaults in
 * config/cluster/node.conf.
 */
public final class ClusterNode {
  public static final String SYSTEM = "tlogsim";
  public static final String NODE = "node";
  public static final String CLIENT = "client";

  private ClusterNode() {}

  /**
   * The configuration of a member: node.conf's defaults under {@code user} (a --config file, may be empty), with
   * {@code host}, {@code port} and {@code seeds} ("host:port") when given (null: from the files), and TLS with
   * {@code keys} over all of them (no file turns it off).
   */
  public static Config config(Config user, String host, Integer port, List<String> seeds, String role,
      ClusterKeys keys) {
    Config base = user.withFallback(ConfigFactory.parseResources("cluster/node.conf"));
    String h = host != null ? host : base.getString("tlogsim.node.host");
    int p = port != null ? port : base.getInt("tlogsim.node.port");
    List<String> s = seeds != null && !seeds.isEmpty() ? seeds : base.getStringList("tlogsim.node.seeds");
    List<String> seedUris = new ArrayList<>();
    for (String seed : s.isEmpty() ? List.of(h + ":" + p) : s) seedUris.add("pekko://" + SYSTEM + "@" + seed);
    Config quiet = role.equals(CLIENT)
        // a client reports what matters itself (no answer, a run submitted again); Pekko's own warnings about
        // connections refused or closed as it leaves would bury its one line. Its threads are daemons: a client that
        // has left but whose remoting is still stopping (ClusterSubmit.Client.close) never keeps a process alive.
        ? ConfigFactory.parseString("pekko.loglevel = ERROR\n"
            + "pekko.daemonic = on") : ConfigFactory.empty();
    return keys.tls().withFallback(quiet)
        .withValue("pekko.remote.artery.canonical.hostname", ConfigValueFactory.fromAnyRef(h))
        .withValue("pekko.remote.artery.canonical.port", ConfigValueFactory.fromAnyRef(p))
        .withValue("pekko.cluster.seed-nodes", ConfigValueFactory.fromIterable(seedUris))
        .withValue("pekko.cluster.roles", ConfigValueFactory.fromIterable(List.of(role)))
        // A client's stdout carries the summary (--json): as its actor system stops, Pekko's own logger takes over
        // from SLF4J and would print there (the nodes' "connection aborted" as the client leaves).
        .withValue("pekko.stdout-loglevel", ConfigValueFactory.fromAnyRef(CLIENT.equals(role) ? "OFF" : "WARNING"))
        .withFallback(base)
        .withFallback(ConfigFactory.load())
        .resolve();
  }

  /**
   * Starts a node: joins the cluster and hosts coordinators and components. Runs whose coordinator it hosts are
   * recorded in the journal {@code journal} (the cluster's shared journal, or null: not journaled), opened in the
   * node's actor system (the process's only one) and closed when the node ends. A journal that is not tlogsim's, or
   * cannot be reached, is refused before the node joins.
   */
  public static ActorSystem<Void> startNode(Config config, JournalSettings given) {
    JournalSettings journal = given == null ? null : Journal.preparedForWriting(given);
    ActorSystem<Void> system = ActorSystem.create(Behaviors.<Void>empty(), SYSTEM,
        journal == null ? config : Journal.systemConfig(journal).withFallback(config));
    Journal j;
    try {
      j = journal == null ? null : Journal.openForWriting(journal, system);
    } catch (RuntimeException e) {
      system.terminate();
      throw e;
    }
    initSharding(system, j);
    if (j != null) system.getWhenTerminated().thenRun(j::close);
    return system;
  }

  /**
   * Where runs and components live: on nodes only (a client gets proxies). One shard per component; a sweep's runs
   * sharded by slot.
   */
  static void initSharding(ActorSystem<?> system, Journal journal) {
    ClusterSharding sharding = ClusterSharding.get(system);
    sharding.init(Entity.of(RunCoordinator.TYPE, ec -> RunCoordinator.create(journal)).withRole(NODE));
    sharding.init(Entity.of(ComponentEntity.TYPE, ec -> ComponentEntity.create()).withRole(NODE)
        .withMessageExtractor(new OneShardPerEntity<>()));
    sharding.init(Entity.of(RunCoordinator.ON_ONE_NODE, ec -> RunCoordinator.createOnOneNode()).withRole(NODE)
        .withMessageExtractor(new BySlot<>()));
  }

  /** Each component its own shard, so the least-shards allocation spreads a run's components evenly. */
  static final class OneShardPerEntity<M> extends ShardingMessageExtractor<ShardingEnvelope<M>, M> {
    @Override
    public String entityId(ShardingEnvelope<M> envelope) {
      return envelope.entityId();
    }

    @Override
    public String shardId(String entityId) {
      return entityId;
    }

    @Override
    public M unwrapMessage(ShardingEnvelope<M> envelope) {
      return envelope.message();
    }
  }

  /**
   * Entity ids {@code slot/rest}, one shard per slot: the least-shards allocation gives each node as many slots as any
   * other (a lost node's go to the survivors), so a sweep with a run per slot at a time keeps every node equally busy,
   * whatever its run ids hash to.
   */
  static final class BySlot<M> extends ShardingMessageExtractor<ShardingEnvelope<M>, M> {
    static String entityId(int slot, String runId) {
      return "slot-" + slot + "/" + runId;
    }

    @Override
    public String entityId(ShardingEnvelope<M> envelope) {
      return envelope.entityId();
    }

    @Override
    public String shardId(String entityId) {
      int cut = entityId.indexOf('/');
      return cut < 0 ? entityId : entityId.substring(0, cut);
    }

    @Override
    public M unwrapMessage(ShardingEnvelope<M> envelope) {
      return envelope.message();
    }
  }

  /**
   * Waits until this node is up in the cluster and its shard region is known to the shard coordinator: only then can
   * a run's components be placed on it. Returns false if the system ended first.
   */
  public static boolean awaitReady(ActorSystem<?> system) throws InterruptedException {
    org.apache.pekko.cluster.typed.Cluster cluster = org.apache.pekko.cluster.typed.Cluster.get(system);
    while (!cluster.selfMember().status().equals(org.apache.pekko.cluster.MemberStatus.up())) {
      if (system.whenTerminated().isCompleted()) return false;
      Thread.sleep(100);
    }
    org.apache.pekko.actor.ActorRef region = org.apache.pekko.cluster.sharding.ClusterSharding
        .get(org.apache.pekko.actor.typed.javadsl.Adapter.toClassic(system)).shardRegion(ComponentEntity.TYPE.name());
    while (!system.whenTerminated().isCompleted()) {
      try {
        Object reply = org.apache.pekko.pattern.Patterns.ask(region,
            org.apache.pekko.cluster.sharding.ShardRegion.getCurrentRegionsInstance(), java.time.Duration.ofSeconds(2))
            .toCompletableFuture().get();
        if (reply instanceof org.apache.pekko.cluster.sharding.ShardRegion.CurrentRegions r
            && r.getRegions().contains(cluster.selfMember().address())) {
          return true;
        }
      } catch (java.util.concurrent.ExecutionException timeout) {
        // the coordinator is not there yet: ask again
      }
      Thread.sleep(200);
    }
    return false;
  }
}
