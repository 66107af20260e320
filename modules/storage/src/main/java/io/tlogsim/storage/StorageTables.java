package io.tlogsim.storage;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.util.ArrayList;
import java.util.List;

/** The cloud disk tables of config/application.conf ({@code tlogsim.storage.premium}) as the storage models take them. */
public final class StorageTables {
  private StorageTables() {}

  public static final String PATH = "tlogsim.storage.premium";

  public static PremiumCatalog premium() {
    return premium(ConfigFactory.load());
  }

  public static PremiumCatalog premium(Config root) {
    try {
      Config c = root.getConfig(PATH);
      List<PremiumTier> tiers = new ArrayList<>();
      String lastBursting = c.getString("burstingUpTo");
      boolean bursting = true; // tiers are listed smallest first; bursting up to and including burstingUpTo
      List<? extends Config> rows = c.getConfigList("tiers");
      if (rows.stream().noneMatch(t -> t.getString("name").equals(lastBursting))) {
        throw new IllegalStateException(PATH + ".burstingUpTo: no tier " + lastBursting);
      }
      for (Config t : rows) {
        tiers.add(new PremiumTier(t.getString("name"), t.getLong("sizeGiB"), t.getLong("iops"), t.getLong("mibPerSec"),
            bursting));
        if (t.getString("name").equals(lastBursting)) bursting = false;
      }
      List<ManagedInstanceBand> bands = new ArrayList<>();
      for (Config b : c.getConfigList("managedInstanceFiles")) {
        bands.add(new ManagedInstanceBand(b.getString("name"), b.getLong("maxGiB"), b.getLong("iops"),
            b.getLong("mibPerSec")));
      }
      return new PremiumCatalog(tiers, bands, c.getLong("burstIops"), c.getLong("burstMiBPerSec"),
          c.getLong("burstMinutes") * 60, c.getLong("ioUnitKiB") << 10, c.getDouble("logRateMiBPerVCore"),
          c.getDouble("logRateMaxMiB"));
    } catch (ConfigException e) {
      throw new IllegalStateException("config " + PATH + " is incomplete: " + e.getMessage(), e);
    }
  }
}
