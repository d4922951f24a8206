-- Shared by every endpoint: print the run's figures as one JSON line (wrk's own
-- --latency table has no 95th percentile). Latencies are in microseconds.
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests":%d,"duration_us":%d,"bytes":%d,"p50":%.1f,"p95":%.1f,"p99":%.1f,' ..
    '"max":%.1f,"mean":%.1f,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max, latency.mean,
    e.connect, e.read, e.write, e.status, e.timeout))
end
