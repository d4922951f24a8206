// Lighthouse on several pages in one Chromium and one Node process.
//
//   node tests/quality/lighthouse.mjs JOB.json
//
// JOB names the pages ({"name": "http://..."}), the categories, the Chromium, the Cookie header
// to send and the folder the reports go to (lighthouse-NAME.report.json and .report.html). Lighthouse's command line takes one address a run, and each
// run starts Node with Lighthouse (a CPU-second) and a browser of its own: on two cores, shared
// with the rest of the suite, that was most of the gate's cost. The tests and `make bench` read
// the reports; this prints nothing when every page was measured.
//
// Lighthouse sometimes loses its own trace of the page load on a busy machine ("Something went
// wrong with recording the trace"): that says nothing about the page, so the page is measured
// again, up to three times; any other failure, and every score, is judged on the first
// complete report.

import fs from 'node:fs';
import path from 'node:path';

import {launch} from 'chrome-launcher';
import lighthouse from 'lighthouse';

const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
// Lighthouse's defaults (the mobile preset) but for how long the network must be quiet: the round
// screen of a table whose players send their own hands asks for them every second, so the
// default (a whole second of quiet) never came, and Lighthouse waited out its 45 s.
const config = JSON.parse(fs.readFileSync(new URL('lighthouse-config.json', import.meta.url), 'utf8'));
// It may fetch nothing but the app on loopback: no background networking, every other host name
// mapped to nowhere.
const FLAGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];
const ATTEMPTS = 3;
const lostTrace = (message) => /recording the trace/.test(message || '');

const chrome = await launch({chromePath: job.chromium, chromeFlags: FLAGS, logLevel: 'silent'});
let failed = 0;
try {
  for (const [name, url] of Object.entries(job.pages)) {
    let result;
    let error;
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      error = undefined;
      try {
        result = await lighthouse(url, {
          port: chrome.port,
          output: ['json', 'html'],
          onlyCategories: job.categories,
          extraHeaders: {Cookie: job.cookie},
          // Each page as a phone new to the site opens it: Lighthouse's own list, and the cookies
          // the page before was given (a newer session would take the place of JOB's).
          clearStorageTypes: ['file_systems', 'shader_cache', 'service_workers', 'cache_storage', 'cookies'],
          logLevel: 'error',
        }, config);
      } catch (thrown) {
        error = thrown;
      }
      const message = error ? String(error.message) : result.lhr.runtimeError?.message;
      if (!lostTrace(message)) break;
    }
    if (error) {
      failed++;
      console.error(`${name}: lighthouse failed: ${error.stack || error}`);
      continue;
    }
    const [json, html] = result.report;
    fs.writeFileSync(path.join(job.out, `lighthouse-${name}.report.json`), json);
    fs.writeFileSync(path.join(job.out, `lighthouse-${name}.report.html`), html);
  }
} finally {
  await chrome.kill();
}
process.exit(failed ? 1 : 0);
