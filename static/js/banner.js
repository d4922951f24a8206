// Lost signal: say so, in words that fit who is looking, and say when it is back. A page the
// service worker kept and shows without signal says how old it is (kept: when it was kept).
// Nothing happens at import: main.js installs the listeners.

// An element with its class and text: every part draws with it (this module is on every page).
export function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) { e.className = cls; }
  if (text !== undefined) { e.textContent = text; }
  return e;
}

// The script's words in the page's language: the page carries them as JSON (#words, from
// scorekeeper/web/scriptwords.py) with blanks to fill ({name}); a module passes its English
// for a page that gives none. setWords: the words given another way (Node's tests).
var given = null;
export function setWords(words) { given = words || {}; }
function words() {
  if (given === null) {
    var block = typeof document === "undefined" ? null : document.getElementById("words");
    try { given = block ? JSON.parse(block.textContent) : {}; } catch (e) { given = {}; }
  }
  return given;
}
export function word(key, english, values) {
  var text = typeof words()[key] === "string" ? words()[key] : english;
  return elide(text.replace(/\{(\w+)\}/g, function (whole, name) { return values && name in values ? values[name] : whole; }),
               values);
}

// French elides "de" and "que" before a name that starts with a vowel sound ("la main d’Ann",
// not "de Ann"), as scorekeeper/web/languages.py's elided does for the server's sentences: the
// page says whether its language does (words' "elides"). A name's h is mute ("d’Hélène"); a y
// before a vowel is not a vowel ("de Yann"); a card ("A") is no name.
var VOWELS = "aeiouàâäéèêëîïôöùûüœæ";
function startsWithAVowelSound(name) {
  var first = name.slice(0, 2).toLowerCase();
  if (first.length < 2 || !/\p{L}/u.test(first[1])) { return false; }
  if (first[0] === "y") { return VOWELS.indexOf(first[1]) < 0; }
  return (VOWELS + "h").indexOf(first[0]) >= 0;
}
export function elide(text, values) {
  if (!words().elides || !values) { return text; }
  ["name", "names"].forEach(function (key) {
    var name = values[key];
    if (typeof name !== "string" || !startsWithAVowelSound(name)) { return; }
    var quoted = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    text = text.replace(new RegExp("(?<![\\p{L}\\p{N}_’'])([Dd]|[Qq]u|[Jj]usqu|[Ll]orsqu|[Pp]uisqu)e " + quoted, "gu"),
                        function (whole, word) { return word + "’" + name; });
  });
  return text;
}
// A sentence naming a stage, whole for the engine's own stage words: the page gives it by the
// game's stage_kind ("Level", "Phase"), and under "" with a table's own word in its blank
// (scorekeeper/web/scriptwords.py), as the server's stage_sentence says it.
export function stageWord(key, kind, english, values) {
  var given = words()[key], said = null;
  if (given && typeof given === "object") { said = given[kind || ""] || given[""]; }
  return word("", typeof said === "string" ? said : english, values);
}
// A sentence about a round, as the server's round_sentence says it: the page gives it under ""
// as written for the engine's own words for a round ("Round", "Deal"), under "own" as written
// for a table's own word, which nothing around it agrees with (scriptwords.py). own: whether
// the game's word is its own (the game's round_own, a round form's data-own-word).
// (A page that gives a sentence as one string says it either way.)
export function roundWord(key, own, english, values) {
  var given = words()[key], said = typeof given === "string" ? given : null;
  if (given && typeof given === "object") { said = (own && given.own) || given[""]; }
  return word("", typeof said === "string" ? said : english, values);
}
// A title word ("Round", "Deal") inside a sentence: lower case, but German nouns keep theirs.
export function inSentence(title) { return words().capitals ? title : title.toLowerCase(); }

var banner = null, lost = false, kept = null;

export function keptAt() { return kept; }
export function setKept(at) { kept = at; }

export function say(text) {
  banner = banner || document.querySelector(".offline-note");
  if (!banner) {
    // In the page's flow under the menu, never over it nor over what the page shows.
    banner = el("p", "offline-note");
    banner.setAttribute("role", "status");
    var top = document.querySelector("header.top");
    if (top) { top.insertAdjacentElement("afterend", banner); } else { document.body.insertBefore(banner, document.body.firstChild); }
  }
  clearTimeout(banner._hide);
  banner.textContent = text || "";
  banner.hidden = !text;
}
function clock(ms) {
  var d = new Date(ms);
  return (d.getHours() < 10 ? "0" : "") + d.getHours() + ":" + (d.getMinutes() < 10 ? "0" : "") + d.getMinutes();
}
// Where the browser gives no service worker (a plain-HTTP address on the table's Wi-Fi), nothing
// can show a page without signal: a reload shows the browser's own error page. What is kept is
// kept all the same (the outbox is in the phone's storage), so on a page where something is
// entered the words say what holds there. (A watcher's board only waits for the next poll.)
function withoutWorker(text) {
  if (typeof navigator === "undefined" || "serviceWorker" in navigator ||
      !document.querySelector("[data-replay], form[data-outbox], .outbox-note")) { return text; }
  return text + " " + word("keep_open", "Keep this page open until the signal returns: a reload now shows the " +
                           "browser's own \u201cno internet\u201d page. Nothing saved here is lost.");
}
export function keptWords() {
  return withoutWorker(document.querySelector("#board")
    ? word("kept_board", "Offline: the scoreboard as of {time}", { time: clock(kept) })
    : word("kept_page", "Offline: this page as of {time}", { time: clock(kept) }));
}
// The server could not be reached: the words are the caller's (the outbox names the round it keeps).
export function lose(text) {
  lost = true;
  say(withoutWorker(text));
}
export function offline(formSave) {
  lost = true;
  if (kept) { say(keptWords()); return; }
  say(withoutWorker(formSave ? word("offline_saving", "Offline, retrying\u2026 nothing you entered is lost.")
    : word("offline", "Offline: reconnecting")));
}
export function backOnline() {
  if (!lost && !kept) { return; }
  lost = false;
  if (kept) {
    kept = null;
    document.body.removeAttribute("data-kept-at");
    if (document.querySelector("form.round-form")) {
      // A round being entered stays on screen; the outbox sends what waits by itself.
    } else if (!document.querySelector("#board") || !window.htmx) {
      location.reload();
      return;
    } else {
      // The kept page is old: the live one takes its place, and its buttons work again.
      window.htmx.ajax("GET", location.pathname + location.search, { target: "#main", swap: "innerHTML" });
    }
  }
  say(word("live", "Live again"));
  banner._hide = setTimeout(function () { say(""); }, 4000);
}

export function install() {
  // What a kept page disabled (offline.js, keptPage) does nothing when tapped.
  document.addEventListener("click", function (event) {
    var off = event.target.closest ? event.target.closest("[aria-disabled=true]") : null;
    if (off) { event.preventDefault(); event.stopPropagation(); }
  }, true);
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.xhr && event.detail.xhr.status) { backOnline(); }
  });
  window.addEventListener("online", function () { if (kept) { backOnline(); } });
}
