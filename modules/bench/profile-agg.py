# profile-agg.py FILE [TOP]: the output of `jfr print --stack-depth 64 --events jdk.ExecutionSample` -> the shares of
# the run's dispatcher threads' samples by where the time goes (the first tlogsim or Pekko frame from the top decides;
# JDK frames such as Arrays.sort go to their caller), then the top frames. Only the run's threads count: the JVM's
# start, the scenario's preparation and the report run on others. Used by profile-gcm1.sh.
import re, collections, sys
txt = open(sys.argv[1]).read()
top = collections.Counter(); cat = collections.Counter(); first = collections.Counter()
KERNEL = {
  'EventQueue': 'kernel: event queue', 'Timers': 'kernel: event queue',
  'Clock': 'kernel: clock (windows, EOT solve)', 'Topology': 'kernel: clock (windows, EOT solve)',
  'Outbox': 'kernel: batches (outbox, sort, send)', 'EventBatch': 'kernel: batches (outbox, sort, send)',
  'ComponentHost': 'kernel: component host (window loop, delivery)', 'ComponentActor': 'kernel: component host (window loop, delivery)',
  'Context': 'kernel: component host (window loop, delivery)',
  'Digest': 'kernel: digest', 'Rng': 'models: random draws', 'Exponential': 'models: random draws',
}
def category(frames):
    for f in frames:
        cls = f.rsplit('.', 1)[0]
        if f.startswith('io.tlogsim.kernel.'):
            simple = cls.split('.')[-1].split('$')[0]
            return KERNEL.get(simple, 'kernel: other (' + simple + ')')
        if f.startswith('org.HdrHistogram') or re.search(r'(Stats|Histogram|Latencies|Series|Facts?)\b', cls.split('.')[-1].split('$')[0]) or '.series.' in f:
            return 'statistics'
        if f.startswith('io.tlogsim.'): return 'models'
        if f.startswith('org.apache.pekko') or f.startswith('scala.'): return 'pekko (mailbox, dispatch)'
    if any(f.startswith('java.util.concurrent.ForkJoin') for f in frames): return 'pekko (mailbox, dispatch)'
    return 'other'
for s in txt.split('jdk.ExecutionSample {')[1:]:
    m = re.search(r'sampledThread = "([^"]*)"', s)
    if not m or 'run-dispatcher' not in m.group(1): continue
    frames = re.findall(r'^\s+([\w.$<>]+)\(.*?\)(?: line:.*)?$', s, re.M)
    if not frames: continue
    top[frames[0]] += 1; cat[category(frames)] += 1
    own = next((f for f in frames if f.startswith('io.tlogsim.') or f.startswith('org.apache.pekko')), frames[0])
    first[own] += 1
n = sum(top.values())
k = int(sys.argv[2]) if len(sys.argv) > 2 else 15
if '--markdown' not in sys.argv:
    print('samples (run threads)', n)
    for f, c in cat.most_common(): print(f'{c*100/n:5.1f} {f}')
    print('\ntop frames (self):')
    for f, c in top.most_common(k): print(f'{c*100/n:5.1f} {f}')
    print('\nfirst tlogsim/pekko frame:')
    for f, c in first.most_common(k): print(f'{c*100/n:5.1f} {f}')
    sys.exit(0)
print(f'| where the run threads\' time goes ({n:,} samples) | share |')
print('| --- | --- |')
for f, c in cat.most_common(): print(f'| {f} | {c*100/n:.1f} % |')
print(f'\n| top frames: self (the sampled method) | share | first tlogsim or Pekko frame (JDK code to its caller) | share |')
print('| --- | --- | --- | --- |')
a = top.most_common(k); b = first.most_common(k)
for (f, c), (g, d) in zip(a, b): print(f'| {f.replace("io.tlogsim.", "")} | {c*100/n:.1f} % | {g.replace("io.tlogsim.", "")} | {d*100/n:.1f} % |')
