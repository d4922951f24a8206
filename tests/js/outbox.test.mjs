// The outbox (static/js/outbox.js) on a fake storage, network and clock: what is sent, in
// which order, and what stays until the server has answered. Run: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import { CLAIM_MS, OUTBOX, RETRY_MS, createOutbox } from "../../static/js/outbox.js";

function memoryStorage() {
  const items = new Map();
  return {
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => { items.set(key, String(value)); },
    removeItem: (key) => { items.delete(key); },
  };
}

// Every request is held until the test answers it (or drops it, as a lost signal does).
function network() {
  const sent = [];
  const fetch = (url, options) => new Promise((resolve, reject) => {
    sent.push({
      url, options, fields: new URLSearchParams(options.body),
      answer: (status, html = "") => resolve({ status, text: () => Promise.resolve(html), headers: new Map() }),
      drop: () => reject(new TypeError("Failed to fetch")),
    });
  });
  return { sent, fetch };
}

// Timers run only when the test says, so that "later" is a step of the test, not a wait.
function clock() {
  let next = 1;
  const timers = new Map();
  return {
    now: 1_000_000,
    setTimeout(fn, ms) { timers.set(next, { fn, ms }); return next++; },
    clearTimeout(id) { timers.delete(id); },
    pending() { return [...timers.values()].map((t) => t.ms).sort((a, b) => a - b); },
    runAll() {
      const due = [...timers.values()];
      timers.clear();
      due.forEach((t) => t.fn());
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

function phone({ storage = memoryStorage(), session = memoryStorage(), online = true, random = 0.5 } = {}) {
  const net = network(), time = clock();
  const events = { notSent: [], answered: [], forgotten: [], changed: 0 };
  const box = createOutbox({
    storage, session, fetch: net.fetch,
    online: () => online, now: () => time.now, random: () => random,
    setTimeout: time.setTimeout, clearTimeout: time.clearTimeout,
    db: () => undefined,
    changed: () => { events.changed += 1; },
    forgetDraft: (id) => { events.forgotten.push(id); },
    notSent: (entry) => { events.notSent.push(entry.number); },
    answered: (entry, response, html) => { events.answered.push([entry.number, response.status, html]); },
  });
  return { box, net, time, events, storage, setOnline: (value) => { online = value; } };
}

function round(number, game = "7", extra = {}) {
  return {
    id: `/games/${game}/rounds/new#${number}`, action: `/games/${game}/rounds/new`, game, number: String(number),
    word: "Round", fields: [["csrf_token", "tok"], ["number", String(number)], ["save", "1"]],
    correction: false, round: { went_out: "Ann" }, holds: "Ann went out", ...extra,
  };
}

test("a game's rounds go one at a time, the lowest number first", async () => {
  const { box, net, time } = phone();
  box.keep(round(3));
  box.keep(round(2));
  box.flush();
  assert.equal(net.sent.length, 1);
  assert.equal(net.sent[0].fields.get("number"), "2");
  box.flush();  // round 2 is on its way: nothing else goes yet
  assert.equal(net.sent.length, 1);
  net.sent[0].answer(200, "<p>saved</p>");
  await settle();
  assert.deepEqual(box.list().map((e) => e.number), ["3"]);
  time.runAll();  // the next round goes as soon as the first is answered
  assert.equal(net.sent.length, 2);
  assert.equal(net.sent[1].fields.get("number"), "3");
});

test("the rounds of different games do not wait for each other", () => {
  const { box, net } = phone();
  box.keep(round(2, "7"));
  box.keep(round(5, "8"));
  box.flush();
  assert.deepEqual(net.sent.map((s) => s.url).sort(), ["/games/7/rounds/new", "/games/8/rounds/new"]);
});

test("a round is sent as the form would post it, with the CSRF token in its header", () => {
  const { box, net } = phone();
  box.keep(round(1));
  box.flush();
  const [request] = net.sent;
  assert.equal(request.options.method, "POST");
  assert.equal(request.options.headers["X-CSRFToken"], "tok");
  assert.equal(request.options.headers["HX-Request"], "true");
  assert.equal(request.fields.get("save"), "1");
});

test("a round stays until the server answers: no signal, a server error, a 400, then saved", async () => {
  const { box, net, time, events } = phone();
  box.keep(round(1));
  box.flush();
  net.sent[0].drop();
  await settle();
  assert.equal(box.list().length, 1);
  assert.deepEqual(events.notSent, ["1"]);
  assert.deepEqual(time.pending(), [RETRY_MS]);
  time.runAll();
  assert.equal(net.sent.length, 2);
  net.sent[1].answer(502);
  await settle();
  assert.equal(box.list().length, 1);
  assert.deepEqual(events.answered, []);
  assert.deepEqual(events.forgotten, []);
  time.runAll();
  net.sent[2].answer(400);  // an expired form token is no answer either
  await settle();
  assert.equal(box.list().length, 1);
  time.runAll();
  net.sent[3].answer(200, "board");
  await settle();
  assert.deepEqual(box.list(), []);
  assert.deepEqual(events.answered, [["1", 200, "board"]]);
  assert.deepEqual(events.forgotten, ["/games/7/rounds/new#1"]);
});

test("a retry sends the round once, however often the phone asks", async () => {
  const { box, net, time } = phone();
  box.keep(round(1));
  box.flush();
  net.sent[0].drop();
  await settle();
  box.flush();  // the "online" event, the five-second tick and the retry all ask at once
  box.flush();
  time.runAll();
  assert.equal(net.sent.length, 2);
  net.sent[1].answer(200);
  await settle();
  time.runAll();
  box.flush();
  assert.equal(net.sent.length, 2);
});

test("a refused round (422) leaves the outbox with its draft kept; a clash (409) without", async () => {
  const refused = phone();
  refused.box.keep(round(1));
  refused.box.flush();
  refused.net.sent[0].answer(422, "<form>the server's words</form>");
  await settle();
  assert.deepEqual(refused.box.list(), []);
  assert.deepEqual(refused.events.answered, [["1", 422, "<form>the server's words</form>"]]);
  assert.deepEqual(refused.events.forgotten, []);

  const clash = phone();
  clash.box.keep(round(1));
  clash.box.flush();
  clash.net.sent[0].answer(409, "changed on another phone");
  await settle();
  assert.deepEqual(clash.box.list(), []);
  assert.deepEqual(clash.events.forgotten, ["/games/7/rounds/new#1"]);
});

test("a later round waits behind one the server refused until that one is answered", async () => {
  const { box, net, time } = phone();
  box.keep(round(1));
  box.keep(round(2));
  box.flush();
  net.sent[0].answer(500);
  await settle();
  time.runAll();
  assert.deepEqual(net.sent.map((s) => s.fields.get("number")), ["1", "1"]);
});

test("a round changed while its send was on the way is sent again as it now stands", async () => {
  const { box, net, events } = phone();
  box.keep(round(1));
  box.flush();
  box.keep(round(1, "7", { fields: [["csrf_token", "tok"], ["number", "1"], ["hand-1", "K"], ["save", "1"]] }));
  net.sent[0].answer(200);
  await settle();
  assert.equal(net.sent.length, 2);
  assert.equal(net.sent[1].fields.get("hand-1"), "K");
  assert.equal(box.list().length, 1);
  assert.deepEqual(events.answered, []);
  net.sent[1].answer(200);
  await settle();
  assert.deepEqual(box.list(), []);
});

test("saving a waiting round again keeps one entry and counts the change", () => {
  const { box } = phone();
  box.keep(round(1));
  box.keep(round(1, "7", { holds: "Ben went out" }));
  const [entry] = box.list();
  assert.equal(entry.rev, 2);
  assert.equal(entry.holds, "Ben went out");
});

test("a phone that knows it is offline does not try, and says it keeps the round", () => {
  const { box, net, time, events, setOnline } = phone({ online: false });
  box.keep(round(1));
  box.flush();
  assert.equal(net.sent.length, 0);
  assert.deepEqual(events.notSent, ["1"]);
  setOnline(true);
  time.runAll();
  assert.equal(net.sent.length, 1);
});

test("another tab's send is left alone while it is fresh, and taken over once it is not", () => {
  const storage = memoryStorage();
  const first = phone({ storage, random: 0.1 });
  const second = phone({ storage, random: 0.2 });
  first.box.keep(round(1));
  first.box.flush();
  assert.equal(first.net.sent.length, 1);
  second.box.flush();
  assert.equal(second.net.sent.length, 0);
  second.time.now = first.time.now + CLAIM_MS + 1;  // the first tab was closed mid-send
  second.box.flush();
  assert.equal(second.net.sent.length, 1);
});

test("a tab closed mid-send lets its round go, and the next page sends it at once", () => {
  const storage = memoryStorage();
  const closed = phone({ storage, random: 0.1 });
  closed.box.keep(round(1));
  closed.box.flush();
  assert.equal(closed.net.sent.length, 1);  // on its way when the tab closes
  closed.box.leave();
  const opened = phone({ storage, random: 0.2 });
  opened.time.now = closed.time.now + 1;
  opened.box.flush();
  assert.equal(opened.net.sent.length, 1);
});

test("the same tab after a reload is still the same tab", () => {
  const storage = memoryStorage(), session = memoryStorage();
  const before = phone({ storage, session, random: 0.1 });
  before.box.keep(round(1));
  before.box.flush();
  const after = phone({ storage, session, random: 0.9 });
  after.box.flush();
  assert.equal(after.net.sent.length, 1);
});

test("undoing a round not yet sent takes it out of the outbox", () => {
  const { box, storage } = phone();
  box.keep(round(1));
  box.keep(round(2));
  box.drop("/games/7/rounds/new#2");
  assert.deepEqual(JSON.parse(storage.getItem(OUTBOX)).map((e) => e.number), ["1"]);
});

test("rounds the service worker sent leave the outbox with their drafts", async () => {
  const db = {
    works: true,
    values: { sent: ["/games/7/rounds/new#1"] },
    read(key) { return Promise.resolve(this.values[key]); },
    change(key, how) { this.values[key] = how(this.values[key]); return Promise.resolve(this.values[key]); },
  };
  const forgotten = [];
  const box = createOutbox({
    storage: memoryStorage(), session: memoryStorage(), fetch: () => { throw new Error("nothing is sent"); },
    online: () => true, now: () => 0, random: () => 0.5, setTimeout: () => 0, clearTimeout: () => {},
    db: () => db, changed: () => {}, forgetDraft: (id) => forgotten.push(id), notSent: () => {}, answered: () => {},
  });
  box.keep(round(1));
  box.keep(round(2));
  await box.takeSent();
  assert.deepEqual(box.list().map((e) => e.number), ["2"]);
  assert.deepEqual(forgotten, ["/games/7/rounds/new#1"]);
  assert.deepEqual(db.values.sent, []);
});

test("a storage that refuses every write (private mode) fails nothing", () => {
  const refusing = { getItem: () => null, setItem: () => { throw new Error("QuotaExceededError"); }, removeItem: () => {} };
  const { box } = phone({ storage: refusing, session: null });
  box.keep(round(1));
  box.flush();
  assert.deepEqual(box.list(), []);
});
