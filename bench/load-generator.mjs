/**
 * One timed autocannon run, in a process of its own (bench/http-load.ts forks it per run): the load
 * generator's garbage collection must not depend on what the bench process holds. In the bench process,
 * after it seeded 100 000 appointments, the same run drove a week of slots 15–20 % slower than from a
 * fresh process (30 k against 37 k req/s here), while a hello-world's tiny answers were not slowed at all:
 * the bigger the answers, the more the generator's heap, not the server, set the pace.
 * Receives { url, headers, connections, seconds } and sends back the run with every response's latency.
 */
import autocannon from 'autocannon';

process.once('message', ({ url, headers, connections, seconds }) => {
  const latencies = [];
  const instance = autocannon({ url, headers, connections, duration: seconds, pipelining: 1 }, (error, result) => {
    if (error) {
      process.send({ error: error instanceof Error ? error.message : String(error) });
      return;
    }
    const statuses = {};
    for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
      if (!status.startsWith('2')) statuses[status] = stats.count ?? 0;
    }
    process.send({
      run: {
        requests: result.requests.total,
        seconds: result.duration,
        latencies: Float64Array.from(latencies),
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        statuses,
      },
    });
  });
  instance.on('response', (_client, _status, _bytes, responseTime) => {
    latencies.push(responseTime);
  });
});
