// A player's own phone (their seat link): the hand tapped on the round screen's keypad (app.js
// does the keys, chips and penalty) is sent to the scorekeeper from an outbox kept on this
// phone (localStorage: it outlives a reload and a lost signal) until the server has it; the
// service worker sends it too, by background sync, with every page of the app closed, as it
// does the scorekeeper's rounds. The page asks the server, conditionally, whether the round was
// saved or the hand changed on the seat's other phone. Without this script the form posts and
// the server answers the same.
(function () {
  "use strict";
  var OUTBOX = "scorekeeper-seat-outbox";
  var sending = false, dirty = false, tag = null, polling = null;

  function page() { return document.querySelector("[data-own-hand]"); }
  function form() { return document.querySelector("form[data-seat-form]"); }
  function outbox() {
    try { return JSON.parse(localStorage.getItem(OUTBOX) || "[]"); } catch (e) { return []; }
  }
  function keep(list) {
    try { localStorage.setItem(OUTBOX, JSON.stringify(list)); } catch (e) { /* private mode: kept in memory */ }
    memory = list;
    mirror(list);
  }
  // The service worker cannot read localStorage: the hands waiting are mirrored into IndexedDB
  // ("hands" in outbox-db.js) for its background sync (sw.js), which is asked for when they wait.
  // Each is known there by its id and the moment it was sent ("id@at"): the worker lists those
  // it sent under "sent-hands", for this page to take out of its outbox (takeSent).
  function mirror(list) {
    var db = window.OutboxDB;
    if (!db || !db.works) { return; }
    db.write("hands", list).then(function () {
      if (!list.length || !navigator.serviceWorker) { return undefined; }
      return navigator.serviceWorker.ready.then(function (reg) { return reg.sync && reg.sync.register("outbox"); });
    }).catch(function () { /* no IndexedDB or no sync here: the page sends it */ });
  }
  function sentKey(entry) { return entry.id + "@" + entry.at; }
  // Hands the service worker sent while no page was open leave the outbox (and their drafts)
  // before this page sends anything: each is sent once.
  var taken = false;
  function takeSent() {
    var db = window.OutboxDB;
    if (!db || !db.works) { taken = true; return Promise.resolve(); }
    return db.read("sent-hands").then(function (sent) {
      if (!sent || !sent.length) { return undefined; }
      var gone = waiting().filter(function (e) { return sent.indexOf(sentKey(e)) >= 0; });
      keep(waiting().filter(function (e) { return sent.indexOf(sentKey(e)) < 0; }));
      gone.forEach(function (e) {
        try { localStorage.removeItem("scorekeeper-draft:" + e.id); } catch (err) { /* private mode */ }
      });
      return db.change("sent-hands", function (now) {
        return (now || []).filter(function (key) { return sent.indexOf(key) < 0; });
      });
    }).catch(function () { /* nothing to take */ }).then(function () { taken = true; });
  }
  var memory = null;
  function waiting() {
    var list = outbox();
    return list.length ? list : (memory || []);
  }

  function say(text) {
    var line = document.querySelector("[data-sent-line]");
    if (line) { line.textContent = text; }
  }
  // The page's words for its script in its language (#words, as js/banner.js reads them);
  // English where it gives none.
  function word(key, english) {
    var given = {};
    try { given = JSON.parse((document.getElementById("words") || {}).textContent || "{}"); } catch (e) { given = {}; }
    return typeof given[key] === "string" ? given[key] : english;
  }

  // "Out" is a box the player can untick: the row is out only while it is ticked (app.js marks
  // the row it belongs to as out whichever way it moved).
  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!box.matches || !box.matches("form[data-seat-form] input[name=went_out]")) { return; }
    box.closest(".player").classList.toggle("is-out", box.checked);
  });

  // A change the player has not sent yet: what the server says meanwhile does not replace it.
  function changed(event) {
    if (event.isTrusted && event.target.closest && event.target.closest("form[data-seat-form]") &&
        !(event.target.closest("button[name=send]"))) { dirty = true; }
  }
  document.addEventListener("input", changed);
  document.addEventListener("change", changed);
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("form[data-seat-form] [data-rank], form[data-seat-form] [data-remove], form[data-seat-form] [data-edit]")) {
      changed(event);
    }
  });

  document.addEventListener("submit", function (event) {
    var f = event.target;
    if (!f.matches || !f.matches("form[data-seat-form]") || !event.submitter || event.submitter.name !== "send") { return; }
    event.preventDefault();
    event.stopPropagation();
    var fields = [];
    new FormData(f).forEach(function (value, name) { if (name !== "seat") { fields.push([name, String(value)]); } });
    fields.push(["send", "1"]);
    var id = f.getAttribute("action") + "#" + f.querySelector("input[name=number]").value;
    var list = waiting().filter(function (e) { return e.id !== id; });
    list.push({ id: id, action: f.getAttribute("action"), fields: fields, at: Date.now() });
    keep(list);
    dirty = false;
    say(word("sending", "Sending\u2026"));
    flush();
  }, true);

  function swap(html) {
    var main = document.querySelector("#main");
    if (!main) { return; }
    if (window.htmx) {
      window.htmx.swap(main, html, { swapStyle: "innerHTML", swapDelay: 0, settleDelay: 0 });
    } else {
      main.innerHTML = html;
    }
    dirty = false;
    var holder = page();
    if (holder && holder.getAttribute("data-tag")) { tag = holder.getAttribute("data-tag"); }
  }

  // The entries waiting, one at a time; each is sent until the server answers it (a resend is
  // safe: the same hand sent twice is kept once).
  function flush() {
    var list = waiting();
    if (sending || !taken || !list.length) { return; }
    if (navigator.onLine === false) { notSent(); return; }
    var entry = list[0];
    var body = new URLSearchParams(), token = "";
    entry.fields.forEach(function (f) { body.append(f[0], f[1]); if (f[0] === "csrf_token") { token = f[1]; } });
    sending = true;
    fetch(entry.action, { method: "POST", body: body, credentials: "same-origin",
                          headers: { "HX-Request": "true", "X-CSRFToken": token } })
      .then(function (response) {
        return response.text().then(function (html) {
          sending = false;
          if ([200, 409, 422].indexOf(response.status) < 0) { notSent(); return; }
          keep(waiting().filter(function (e) { return e.id !== entry.id || e.at !== entry.at; }));
          var f = form();
          if (f && f.getAttribute("action") + "#" + f.querySelector("input[name=number]").value === entry.id) {
            try { localStorage.removeItem("scorekeeper-draft:" + entry.id); } catch (e) { /* private mode */ }
          }
          if (page() && !(dirty && response.status === 200)) { swap(html); }
          flush();
        });
      })
      .catch(function () { sending = false; notSent(); });
  }
  function notSent() {
    say(word("hand_not_sent", "Not sent yet: no signal. Your hand is kept on this phone and goes to the scorekeeper by " +
             "itself when the signal returns."));
  }
  window.addEventListener("online", flush);
  setInterval(function () { if (waiting().length) { flush(); } }, 3000);
  // The service worker's background sync, with a page open, leaves the sending to the page.
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("message", function (event) { if (event.data === "send-outbox") { flush(); } });
  }

  // Has the round been saved, or the hand changed on the seat's other phone or entered by the
  // scorekeeper? One small question every second, as the round screen asks (304 while nothing
  // changed), so the scorekeeper's entry shows here within a second or two of their last tap;
  // the answer replaces the page unless the player is changing their hand for the same round.
  function poll() {
    var holder = page();
    if (!holder || document.hidden || sending || waiting().length || navigator.onLine === false) { return; }
    var headers = { "HX-Request": "true" };
    if (tag) { headers["If-None-Match"] = tag; }
    fetch(holder.getAttribute("data-live"), { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status !== 200) { return undefined; }
        return response.text().then(function (html) {
          var f = form();
          var next = new DOMParser().parseFromString(html, "text/html").querySelector("form[data-seat-form] input[name=number]");
          var same = f && next && next.value === f.querySelector("input[name=number]").value;
          if (dirty && same) { return; }
          swap(html);
          tag = response.headers.get("ETag") || tag;
        });
      })
      .catch(function () { /* no signal: asked again in a moment */ });
  }

  function start() {
    var holder = page();
    if (!holder) { return; }
    tag = holder.getAttribute("data-tag") || tag;
    if (!polling) { polling = setInterval(poll, 1000); }
    takeSent().then(function () {
      if (waiting().length) { say(word("hand_sending", "Not sent yet: sending\u2026")); flush(); }
    });
  }
  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { poll(); } });
})();
