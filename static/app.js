// The phone's side of the app: the round screen's docked keypad (each tap adds a card to the
// selected player's row, chips remove one, the penalty updates as you go; without this script
// the same buttons post to the server, which does the same), the draft kept while a round is
// entered, new seats as names are typed, the undo message, live polling, the wake lock and
// the offline note.
(function () {
  "use strict";

  function formOf(el) { return el && el.closest ? el.closest("form.round-form") : null; }

  function table(form) {
    if (!form._cards) { form._cards = JSON.parse(form.getAttribute("data-values")); }
    return form._cards;
  }

  // The cards of a typed hand, read as the server reads them: each word a card, or (the standard
  // deck) a run of cards typed without spaces ("AK77"). A word that is no card stays one token
  // with no rank; a card the game does not play (a joker without jokers) has a rank, no value.
  function tokens(text, cards, runs) {
    var out = [];
    text.split(/[\s,;]+/).filter(Boolean).forEach(function (t) {
      var parts = cards.aliases[t.toLowerCase()] ? [t] : (runs && run(t.toLowerCase(), cards.aliases)) || [t];
      parts.forEach(function (part) {
        var rank = cards.aliases[part.toLowerCase()];
        out.push({ text: rank ? cards.labels[rank] || rank : part.toUpperCase(), rank: rank || null,
                   value: rank && cards.values[rank] !== undefined ? cards.values[rank] : null });
      });
    });
    return out;
  }
  function run(word, aliases) {
    var parts = [], at = 0;
    while (at < word.length) {
      var len = Math.min(5, word.length - at);
      while (len > 0 && !aliases[word.substr(at, len)]) { len -= 1; }
      if (!len) { return null; }
      parts.push(word.substr(at, len));
      at += len;
    }
    return parts;
  }
  function inPlay(form) {
    if (!form._inPlay) { form._inPlay = JSON.parse(form.getAttribute("data-in-play") || "{}"); }
    return form._inPlay;
  }
  function cardsOf(form, row) { return tokens(field(row, "hand").value, table(form), inPlay(form).runs); }

  function rows(form) { return Array.prototype.slice.call(form.querySelectorAll(".player[data-seat]")); }
  function field(row, name) { return row.querySelector("input[name=" + name + "-" + row.getAttribute("data-seat") + "]"); }
  function nameOf(row) { return row.querySelector(".pname").textContent; }
  function isOut(row) { var r = row.querySelector("input[name=went_out]"); return r && r.checked; }
  function selected(form) {
    var radio = form.querySelector("input[name=seat]:checked");
    return radio ? radio.closest(".player") : rows(form)[0];
  }
  function needsHand(row) { return !isOut(row) && !field(row, "hand").value.trim() && !field(row, "points").value.trim(); }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  // The points of the bonuses ticked for a row (each box carries its own, from the rule set).
  function bonusPoints(row) {
    var sum = 0;
    row.querySelectorAll("input[name^=bonus-]:checked").forEach(function (box) { sum += Number(box.getAttribute("data-points")); });
    return sum;
  }

  // A row: the cards as chips (or a note) and its score so far (the cards' values from the
  // game's rule set, plus the bonuses ticked).
  // Going out makes the contract: the row that is out has its "Made" ticked and locked (the box
  // disabled, its hidden twin sends the tick); another row's is the player's to tick or not.
  function lockMade(row) {
    var made = row.querySelector("input[type=checkbox][name^=achieved-]");
    var twin = row.querySelector("input[type=hidden][name^=achieved-]");
    if (!made) { return; }
    var out = isOut(row);
    if (out) { made.checked = true; }
    made.disabled = out;
    if (twin) { twin.disabled = !out; }
  }

  function refresh(row) {
    var form = formOf(row);
    if (!form) { return; }
    lockMade(row);
    var hand = field(row, "hand"), points = field(row, "points");
    var chips = row.querySelector("[data-chips]"), output = row.querySelector(".penalty");
    var list = cardsOf(form, row);
    var sum = 0, unknown = false;
    chips.textContent = "";
    if (isOut(row)) {
      chips.appendChild(el("span", "note", "went out"));
      output.textContent = String(bonusPoints(row));
      return;
    }
    if (points.value.trim()) {
      chips.appendChild(el("span", "note", points.value.trim() === "0" ? "no cards" : "counted by hand"));
      var typed = points.value.trim();
      output.textContent = /^[0-9]+$/.test(typed) ? String(Number(typed) + bonusPoints(row)) : typed;
      return;
    }
    list.forEach(function (card) {
      chips.appendChild(el("span", card.value === null ? "chip bad" : "chip", card.text));
      if (card.value === null) { unknown = true; } else { sum += card.value; }
    });
    if (!list.length) { chips.appendChild(el("span", "note muted", "no cards yet")); }
    output.textContent = unknown ? "?" : String(sum + bonusPoints(row));
  }

  // The dock: whose hand the keypad types into, that hand's chips (a tap removes one), and
  // every key's name for a screen reader ("Add K to Ben").
  function dock(form) {
    var row = selected(form);
    if (!row) { return; }
    var name = nameOf(row);
    rows(form).forEach(function (r) { r.classList.toggle("is-selected", r === row); });
    form.querySelector("[data-who]").textContent = name;
    var hand = form.querySelector("[data-hand]");
    hand.textContent = "";
    var list = cardsOf(form, row);
    list.forEach(function (card, index) {
      var chip = el("button", card.value === null ? "chip bad" : "chip", card.text);
      chip.type = "button";
      chip.setAttribute("data-remove", index);
      chip.setAttribute("aria-label", "Remove " + card.text + " from " + name + "'s hand");
      hand.appendChild(chip);
    });
    if (!list.length) {
      hand.appendChild(el("span", "muted small", isOut(row) ? "went out: no cards" : "tap the cards left in the hand"));
    }
    // The line scrolls sideways: the card just tapped (the last) is the one kept in sight.
    hand.scrollLeft = hand.scrollWidth;
    form.querySelector("[data-keypad]").setAttribute("aria-label", "Cards for " + name);
    form.querySelectorAll("button[data-rank]").forEach(function (key) {
      key.setAttribute("aria-label", "Add " + key.getAttribute("data-label") + " to " + name);
    });
    var words = { back: "Take the last card off " + name + "'s hand", clear: "Clear " + name + "'s hand",
                  none: name + " has no cards left", type: "Type " + name + "'s cards or points" };
    form.querySelectorAll("button[data-edit]").forEach(function (key) {
      key.setAttribute("aria-label", words[key.getAttribute("data-edit")]);
    });
  }

  function select(form, row) {
    var radio = row.querySelector("input[name=seat]");
    if (radio) { radio.checked = true; }
    rows(form).forEach(function (r) {
      if (r !== row) { r.classList.remove("typing"); r.querySelector(".typed").hidden = true; }
    });
    dock(form);
  }

  // After a player is marked as went out, or said to hold no cards: on to the next player,
  // clockwise, who still needs a hand.
  function selectNext(form, after) {
    var all = rows(form), start = all.indexOf(after);
    for (var step = 1; step <= all.length; step++) {
      var row = all[(start + step) % all.length];
      if (needsHand(row)) { select(form, row); return; }
    }
    if (isOut(selected(form))) {
      var other = all.filter(function (r) { return !isOut(r); })[0];
      if (other) { select(form, other); }
    }
    dock(form);
  }

  // "Saving ends the game: Ben completes level 7", before it is saved.
  function ending(form) {
    var note = form.querySelector(".ending");
    if (!note) { return; }
    var reasons = [];
    if (form.getAttribute("data-last")) { reasons.push(form.getAttribute("data-last")); }
    rows(form).forEach(function (row) {
      var made = row.querySelector("input[name^=achieved-]");
      if (row.hasAttribute("data-finishes") && (isOut(row) || (made && made.checked))) {
        reasons.push(row.getAttribute("data-finishes"));
      }
    });
    note.hidden = !reasons.length;
    note.textContent = reasons.length ? "Saving ends the game: " + reasons.join(" and ") + "." : "";
  }

  // ---- Errors that hold now, not when Save was last tapped. What the phone can count itself (a
  // word that is no card, more of a card than the game's decks or jokers hold: said on every row
  // that holds one) is worked out on every change. The server's own words for those go at the
  // first change, and its other words for a row go when that row's entry changes.
  function problems(form) {
    var limits = inPlay(form), found = {}, held = {}, total = {}, label = {};
    rows(form).forEach(function (row) {
      var seat = row.getAttribute("data-seat"), name = nameOf(row);
      found[seat] = [];
      if (isOut(row) || field(row, "points").value.trim()) { return; }
      cardsOf(form, row).forEach(function (card) {
        if (!card.rank) {
          found[seat].push(name + ': "' + card.text + '" is not a card.');
        } else if (card.value === null) {
          found[seat].push(name + ": " + card.text + " is not a card of this game.");
        } else {
          total[card.rank] = (total[card.rank] || 0) + 1;
          label[card.rank] = card.text;
          (held[card.rank] = held[card.rank] || {})[seat] = true;
        }
      });
    });
    Object.keys(total).forEach(function (rank) {
      var limit = (limits.cards || {})[rank];
      if (limit === undefined || total[rank] <= limit) { return; }
      var what = rank === "JK" ? limit + " joker" + (limit === 1 ? "" : "s") + " in play"
        : limits.decks + (limits.decks === 1 ? " deck holds" : " decks hold") + " only " + limit + " of " + rank;
      Object.keys(held[rank]).forEach(function (seat) {
        var row = form.querySelector(".player[data-seat='" + seat + "']");
        found[seat].push(nameOf(row) + ": " + total[rank] + " \u00d7 " + label[rank] + " in this round, but " + what + ".");
      });
    });
    return found;
  }
  function recheck(form, row) {
    if (row) {
      form.querySelectorAll(".seat-errors [data-recheck]").forEach(function (e) { e.remove(); });
      row.querySelectorAll(".seat-errors > span").forEach(function (e) { e.remove(); });
    }
    var found = problems(form);
    rows(form).forEach(function (r) {
      var seat = r.getAttribute("data-seat"), box = r.querySelector(".seat-errors");
      if (box) { box.querySelectorAll("[data-phone]").forEach(function (e) { e.remove(); }); }
      // A page opened with the server's words for a row: they stand until something changes.
      var mine = !row && box && box.children.length ? [] : found[seat];
      if (mine.length) {
        if (!box) {
          box = el("span", "seat-errors");
          box.id = "err-" + seat;
          box.setAttribute("role", "alert");
          r.querySelector(".pick").appendChild(box);
        }
        mine.forEach(function (text) {
          var line = el("span", "", text);
          line.setAttribute("data-phone", "");
          box.appendChild(line);
        });
      }
      var wrong = !!(box && box.children.length);
      if (box && !wrong) { box.remove(); }
      r.classList.toggle("has-error", wrong);
      var hand = field(r, "hand");
      if (wrong) {
        hand.setAttribute("aria-invalid", "true");
        hand.setAttribute("aria-describedby", "err-" + seat);
      } else {
        hand.removeAttribute("aria-invalid");
        hand.removeAttribute("aria-describedby");
      }
    });
  }

  function changed(form, row) {
    if (row) { refresh(row); }
    dock(form);
    ending(form);
    recheck(form, row);
    saveDraft(form);
  }

  document.addEventListener("click", function (event) {
    var form = formOf(event.target);
    if (!form) { return; }
    var key = event.target.closest("button[data-rank]");
    var chip = event.target.closest("button[data-remove]");
    var tool = event.target.closest("button[data-edit]");
    if (!key && !chip && !tool) { return; }
    event.preventDefault();
    var row = selected(form);
    var hand = field(row, "hand"), points = field(row, "points");
    var parts = hand.value.split(/[\s,;]+/).filter(Boolean);
    if (key) {
      if (isOut(row)) { return; }
      hand.value = parts.concat([key.getAttribute("data-rank")]).join(" ");
      points.value = "";
    } else if (chip) {
      parts.splice(Number(chip.getAttribute("data-remove")), 1);
      hand.value = parts.join(" ");
    } else {
      var what = tool.getAttribute("data-edit");
      if (what === "back") { hand.value = parts.slice(0, -1).join(" "); }
      if (what === "clear") { hand.value = ""; points.value = ""; }
      if (what === "none" && !isOut(row)) {
        hand.value = ""; points.value = "0";
        changed(form, row);
        selectNext(form, row);
        return;
      }
      if (what === "type") {
        var open = row.querySelector(".typed").hidden;
        row.querySelector(".typed").hidden = !open;
        row.classList.toggle("typing", open);
        if (open) { (points.value ? points : hand).focus(); }
        return;
      }
    }
    changed(form, row);
  });

  document.addEventListener("input", function (event) {
    var form = formOf(event.target);
    if (!form || !event.target.matches("input[name^=hand-], input[name^=points-]")) { return; }
    var row = event.target.closest(".player");
    // A row holds cards or a points total, never both.
    var other = field(row, event.target.name.indexOf("hand-") === 0 ? "points" : "hand");
    if (event.target.value.trim() && other.value) { other.value = ""; }
    changed(form, row);
  });

  document.addEventListener("change", function (event) {
    var form = formOf(event.target);
    if (!form) { return; }
    var row = event.target.closest(".player");
    if (event.target.matches("input[name=went_out]")) {
      rows(form).forEach(function (r) {
        var out = r === row;
        r.classList.toggle("is-out", out);
        refresh(r);  // locks the Made of the row that is out, unlocks the others
      });
      ending(form);
      recheck(form, row);
      // "Tap the player who went out." no longer holds once someone is.
      form.querySelectorAll("[data-no-one-out]").forEach(function (p) {
        var box = p.parentNode;
        p.remove();
        if (!box.children.length) { box.remove(); }
      });
      selectNext(form, row);
    } else if (event.target.matches("input[name=seat]")) {
      select(form, row);
    } else if (event.target.matches("input[name^=achieved-]")) {
      ending(form);
    } else if (event.target.matches("input[name^=bonus-]")) {
      refresh(row);
    }
  });

  // ---- Nothing typed is lost: the round form is kept on this phone (every tab, after a reload
  // or a browser restart) until it is saved or discarded (Cancel). While its save waits to be
  // sent, what is sent follows the form (a card changed meanwhile goes with it).
  function draftKey(form) {
    var number = form.querySelector("input[name=number]");
    return "scorekeeper-draft:" + form.getAttribute("action") + "#" + (number ? number.value : "");
  }

  function saveDraft(form) {
    var data = {};
    form.querySelectorAll("input[name^=hand-], input[name^=points-]").forEach(function (i) { data[i.name] = i.value; });
    form.querySelectorAll("input[name=went_out]:checked, input[name^=achieved-]:checked, input[name^=bonus-]:checked").forEach(function (i) {
      data[i.name + "=" + i.value] = true;
    });
    try { localStorage.setItem(draftKey(form), JSON.stringify(data)); } catch (e) { /* private mode */ }
    if (waiting(form)) { enqueue(form); }
  }

  function restoreDraft(form) {
    var pristine = !form.querySelector("input[name=went_out]:checked") &&
      !Array.prototype.some.call(form.querySelectorAll("input[name^=hand-], input[name^=points-]"), function (i) { return i.value; });
    if (!pristine) { return false; }
    var raw = null;
    try { raw = localStorage.getItem(draftKey(form)); } catch (e) { return false; }
    if (!raw) { return false; }
    var data = JSON.parse(raw), any = false;
    form.querySelectorAll("input[name^=hand-], input[name^=points-]").forEach(function (i) {
      if (data[i.name]) { i.value = data[i.name]; any = true; }
    });
    form.querySelectorAll("input[type=radio], input[type=checkbox]").forEach(function (i) {
      if (data[i.name + "=" + i.value]) { i.checked = true; any = true; i.dispatchEvent(new Event("change", { bubbles: true })); }
    });
    return any;
  }

  // A draft put back without a word was typed again on top of itself (doubled cards): say so at
  // the top of the screen, with "Start over" to empty the form and forget the draft.
  function sayKept(form) {
    var note = form.querySelector("[data-kept-entry]");
    if (note) { note.hidden = false; }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-start-over]") : null;
    var form = formOf(button);
    if (!form) { return; }
    forget(draftKey(form));
    form.querySelectorAll("input[name^=hand-], input[name^=points-]").forEach(function (i) { i.value = ""; });
    form.querySelectorAll("input[name=went_out], input[name^=achieved-], input[name^=bonus-]").forEach(function (i) { i.checked = false; });
    rows(form).forEach(function (r) { r.classList.remove("is-out"); refresh(r); });
    ending(form);
    dock(form);
    recheck(form, selected(form));
    button.closest("[data-kept-entry]").hidden = true;
  });

  document.addEventListener("change", function (event) {
    var form = formOf(event.target);
    if (form) { saveDraft(form); }
  });
  // A round the server stored leaves no draft behind (the same number may come again after
  // an undo, and must start blank).
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = formOf(event.detail.elt);
    var xhr = event.detail.xhr;
    if (form && xhr && xhr.status === 200 && !document.body.contains(form)) {
      forget(draftKey(form));
    }
  });
  document.addEventListener("click", function (event) {
    var cancel = event.target.closest ? event.target.closest("a[data-discard]") : null;
    var form = formOf(cancel);
    if (form && !waiting(form)) { forget(draftKey(form)); }
  });
  function forget(key) {
    try { localStorage.removeItem(key); } catch (e) { /* private mode */ }
  }

  // ---- The outbox: a round saved on this phone stays here (localStorage: it outlives a reload,
  // a closed tab, a browser restart) until the server has answered it. It is sent by itself,
  // from any page of the app, as soon as the server can be reached; one send at a time for
  // each round, and a resend is safe (the server recognises the phone's own round).
  var OUTBOX = "scorekeeper-outbox";
  var sending = {}, retry = null;
  function outbox() {
    try { return JSON.parse(localStorage.getItem(OUTBOX) || "[]"); } catch (e) { return []; }
  }
  function putOutbox(list) {
    try { localStorage.setItem(OUTBOX, JSON.stringify(list)); } catch (e) { /* private mode: kept in memory */ }
    mirror(list);
    showOutbox();
  }
  // The service worker cannot read localStorage: for its background sync (sw.js) the outbox is
  // mirrored into IndexedDB (outbox-db.js), and the worker is asked to send it when it can.
  function mirror(list) {
    if (!window.OutboxDB || !window.OutboxDB.works) { return; }
    window.OutboxDB.write("list", list).then(function () {
      if (!list.length || !navigator.serviceWorker) { return undefined; }
      return navigator.serviceWorker.ready.then(function (reg) { return reg.sync && reg.sync.register("outbox"); });
    }).catch(function () { /* no IndexedDB or no sync here: the pages send it */ });
  }
  // Rounds the worker sent while no page was open leave this page's outbox (and their drafts).
  function takeSent() {
    if (!window.OutboxDB || !window.OutboxDB.works) { return Promise.resolve(); }
    return window.OutboxDB.read("sent").then(function (ids) {
      if (!ids || !ids.length) { return undefined; }
      putOutbox(outbox().filter(function (e) { return ids.indexOf(e.id) < 0; }));
      ids.forEach(function (id) { forget("scorekeeper-draft:" + id); });
      return window.OutboxDB.change("sent", function (sent) {
        return (sent || []).filter(function (id) { return ids.indexOf(id) < 0; });
      });
    }).catch(function () { /* nothing to take */ });
  }
  function entryId(form) { return draftKey(form).slice("scorekeeper-draft:".length); }
  function waiting(form) {
    if (!form.hasAttribute("data-outbox")) { return null; }
    var id = entryId(form);
    return outbox().filter(function (e) { return e.id === id; })[0] || null;
  }
  function gameOf(action) { var m = /\/games\/([0-9]+)\//.exec(action); return m ? m[1] : ""; }
  function thisGame() {
    var m = /^\/games\/([0-9]+)(\/|$)/.exec(location.pathname);
    return m ? m[1] : "";
  }
  function describe(entry, full) {
    var here = !full && entry.game === thisGame();
    return (entry.correction ? "Correction of " + entry.word.toLowerCase() : entry.word) + " " + entry.number +
      (here ? "" : " of game " + entry.game) + ": waiting to send";
  }
  // What the round holds, in a line: "Ann went out · Ben: Q 7 (17) · Cat: no cards".
  function holds(form) {
    return rows(form).map(function (row) {
      var points = field(row, "points").value.trim(), cards = cardsOf(form, row);
      var bonuses = Array.prototype.map.call(row.querySelectorAll("input[name^=bonus-]:checked"), function (box) {
        return ", " + box.nextElementSibling.textContent;
      }).join("");
      if (isOut(row)) { return nameOf(row) + " went out" + bonuses; }
      if (points) { return nameOf(row) + ": " + (points === "0" ? "no cards" : points + " points") + bonuses; }
      return nameOf(row) + ": " + (cards.length ? cards.map(function (c) { return c.text; }).join(" ") +
        " (" + row.querySelector(".penalty").textContent + ")" : "no cards yet") + bonuses;
    }).join(" \u00b7 ");
  }
  function enqueue(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) { if (name !== "seat") { fields.push([name, String(value)]); } });
    fields.push(["save", "1"]);
    var list = outbox(), id = entryId(form);
    var entry = list.filter(function (e) { return e.id === id; })[0];
    if (!entry) {
      entry = { id: id, action: form.getAttribute("action"), game: gameOf(form.getAttribute("action")),
                number: form.querySelector("input[name=number]").value, word: form.getAttribute("data-word"), rev: 0 };
      list.push(entry);
    }
    entry.fields = fields;
    // A correction is sent like a new round (in order, once), but only new rounds are worked out
    // on the phone: a correction changes the rounds after it, which the server works out again.
    entry.correction = form.hasAttribute("data-correction");
    entry.round = entry.correction ? null : roundOf(form);
    entry.holds = holds(form);
    entry.rev += 1;
    putOutbox(list);
  }
  // The round as offline-replay.js reads it, for the phone's own figures while it waits.
  function roundOf(form) {
    var cards = table(form), round = { went_out: null, hands: {}, points: {}, achieved: [], bonuses: {} };
    rows(form).forEach(function (row) {
      var name = nameOf(row).trim(), points = field(row, "points").value.trim();
      var made = row.querySelector("input[name^=achieved-]");
      var earned = Array.prototype.map.call(row.querySelectorAll("input[name^=bonus-]:checked"), function (box) { return box.value; });
      if (earned.length) { round.bonuses[name] = earned; }
      if (isOut(row)) { round.went_out = name; } else if (points) { round.points[name] = Number(points); } else {
        round.hands[name] = field(row, "hand").value.split(/[\s,;]+/).filter(Boolean)
          .map(function (t) { return cards.aliases[t.toLowerCase()] || t; });
      }
      if (made && made.checked) { round.achieved.push(name); }
    });
    return round;
  }
  function drop(id) { putOutbox(outbox().filter(function (e) { return e.id !== id; })); }

  // A game's rounds are sent in order: the lowest number first, the next once it is answered.
  function flush() {
    var first = {};
    outbox().forEach(function (e) {
      if (!first[e.game] || Number(e.number) < Number(first[e.game].number)) { first[e.game] = e; }
    });
    // A phone that knows it has no network (navigator.onLine is false) does not try: the
    // "online" event sends it. (A send that fails while the phone believes it is online is
    // retried the same way, below.)
    Object.keys(first).forEach(function (game) {
      if (navigator.onLine === false) { notSent(first[game]); } else { send(first[game]); }
    });
  }
  function later() {
    clearTimeout(retry);
    retry = setTimeout(flush, 3000);
  }
  // One tab sends a round at a time: the others leave it while its send is fresh (20 s).
  var tab = String(Math.random());
  try {
    tab = sessionStorage.getItem("scorekeeper-tab") || tab;  // the same tab after a reload
    sessionStorage.setItem("scorekeeper-tab", tab);
  } catch (e) { /* private mode */ }
  function claim(entry) {
    var list = outbox(), mine = list.filter(function (e) { return e.id === entry.id; })[0];
    if (!mine || (mine.tab && mine.tab !== tab && Date.now() - mine.claimed < 20000)) { return false; }
    mine.tab = tab;
    mine.claimed = Date.now();
    try { localStorage.setItem(OUTBOX, JSON.stringify(list)); } catch (e) { /* private mode */ }
    return true;
  }
  function release(entry) {
    var list = outbox();
    list.forEach(function (e) { if (e.id === entry.id && e.tab === tab) { e.tab = null; } });
    try { localStorage.setItem(OUTBOX, JSON.stringify(list)); } catch (e) { /* private mode */ }
  }
  function send(entry) {
    if (sending[entry.id] || !claim(entry)) { return; }
    sending[entry.id] = true;
    var body = new URLSearchParams(), token = "";
    entry.fields.forEach(function (f) { body.append(f[0], f[1]); if (f[0] === "csrf_token") { token = f[1]; } });
    fetch(entry.action, { method: "POST", body: body, credentials: "same-origin",
                          headers: { "HX-Request": "true", "X-CSRFToken": token } })
      .then(function (response) {
        return response.text().then(function (html) { answered(entry, response, html); });
      })
      .catch(function () {
        delete sending[entry.id];
        release(entry);
        notSent(entry);
      });
  }
  function notSent(entry) {
    lost = true;
    say("Offline, retrying\u2026 " + entry.word.toLowerCase() + " " + entry.number +
        " is kept on this phone and sent by itself when the signal returns.");
    later();
    // The round just saved waits, and the phone knows it has no network: the scoreboard this
    // phone kept takes the form's place (with what waits, worked out on the phone), at the
    // game's own address, so that a reload or Back leads to the game rather than to a form
    // already saved. (A send that failed with the network up, an answer lost, is tried again in
    // a moment: the form stays, and a card missed can still be added to what is sent.)
    var form = document.querySelector("form.round-form[data-replay]");
    if (navigator.onLine === false && form && waiting(form) && gameOf(form.getAttribute("action")) === entry.game) {
      showKeptBoard(entry.game, true);
    }
  }
  function answered(entry, response, html) {
    delete sending[entry.id];
    var status = response.status;
    if (status !== 200 && status !== 409 && status !== 422) { release(entry); later(); return; }  // not answered yet
    var now = outbox().filter(function (e) { return e.id === entry.id; })[0];
    if (now && now.rev !== entry.rev) { send(now); return; }  // changed meanwhile: the server compares
    drop(entry.id);
    if (status !== 422) { forget("scorekeeper-draft:" + entry.id); }
    backOnline();
    setTimeout(flush, 0);  // the game's next round, if one waits
    var form = document.querySelector("form.round-form[data-outbox]");
    if (form && gameOf(form.getAttribute("action")) === entry.game &&
        Number(form.querySelector("input[name=number]").value) > Number(entry.number)) {
      // The scorekeeper is already entering a later round: it stays on screen.
      say(entry.word + " " + entry.number + " sent.");
      showOutbox();
      return;
    }
    var mine = (form && entryId(form) === entry.id) || entry.game === thisGame() ||
      document.querySelector("[data-offline-page]");
    var main = document.querySelector("#main");
    if (!mine || !main || !window.htmx) {
      say(entry.word + " " + entry.number + " of game " + entry.game + " sent.");
      return;
    }
    window.htmx.swap(main, html, { swapStyle: "innerHTML", swapDelay: 0, settleDelay: 0 });
    var url = response.headers.get("HX-Push-Url");
    if (url && url !== location.pathname) { history.pushState({ htmx: true }, "", url); }
    init(main);
  }

  // On screen: a note for each round waiting, and the Save of a waiting round shows it waits.
  function showOutbox() {
    var main = document.querySelector("#main");
    if (!main) { return; }
    main.querySelectorAll(".outbox-note").forEach(function (n) { n.remove(); });
    var list = outbox();
    if (list.length && !document.querySelector("[data-offline-page]")) {
      var box = el("div", "outbox-note");
      box.setAttribute("role", "status");
      list.forEach(function (entry) {
        var line = el("p");
        line.appendChild(el("strong", "", describe(entry)));
        line.appendChild(el("span", "small", " " + entry.holds));
        box.appendChild(line);
      });
      main.insertBefore(box, main.firstChild);
    }
    document.querySelectorAll("form.round-form[data-outbox]").forEach(function (form) {
      var save = form.querySelector("button[name=save]");
      if (!save._words) { save._words = save.textContent; }
      var pending = waiting(form);
      save.disabled = !!pending;
      save.classList.toggle("is-waiting", !!pending);
      save.textContent = pending ? "Waiting to send\u2026" : save._words;
    });
    waitingList();
    phoneFigures();
  }

  // The scoreboard and the round screen, while this game's rounds wait: the phone works them
  // out by the rule set's data the page holds (offline-replay.js), marked "not yet sent"; the
  // server's answers replace these figures as each round is sent. Without the server the
  // scorekeeper records the next round here too (offline-form.js).
  function phoneState(holder, id) {
    if (!holder || !window.OfflineReplay) { return null; }
    var game = JSON.parse(holder.getAttribute("data-replay"));
    if (!game.state.next) { return null; }
    var mine = outbox().filter(function (e) { return e.game === id && e.round && Number(e.number) >= game.state.next.number; })
      .sort(function (a, b) { return Number(a.number) - Number(b.number); });
    if (mine.length && Number(mine[0].number) !== game.state.next.number) { return null; }
    var state = null;
    try { state = window.OfflineReplay.replay(game, mine.map(function (e) { return e.round; })); } catch (e) { /* shown below */ }
    return { game: game, mine: mine, state: state };
  }
  function phoneFigures() {
    document.querySelectorAll(".phone-figures").forEach(function (n) { n.remove(); });
    document.querySelectorAll("[data-phone-hid]").forEach(function (n) { n.hidden = false; n.removeAttribute("data-phone-hid"); });
    var board = document.querySelector("#board[data-replay]"), form = document.querySelector("form.round-form[data-replay]");
    var holder = board || (form && waiting(form) ? form : null);
    if (!holder) { return; }
    var id = board ? board.getAttribute("data-game") : gameOf(form.getAttribute("action"));
    var phone = phoneState(holder, id);
    if (!phone || !phone.mine.length) { return; }
    var box = el("section", "phone-figures"), state = phone.state, game = phone.game;
    box.setAttribute("aria-label", "Worked out on this phone");
    holder.parentNode.insertBefore(box, holder);
    if (!state) {
      box.appendChild(el("p", "", "Not yet sent: the scores are worked out when the rounds reach the server."));
      return;
    }
    var last = phone.mine[phone.mine.length - 1], word = last.word.toLowerCase();
    box.appendChild(el("h2", "", "Not yet sent: after " + word + " " + last.number + ", worked out on this phone"));
    var list = el("ol", "phone-totals");
    game.players.map(function (name, seat) { return { name: name, total: state.totals[seat], level: state.completed[seat] }; })
      .sort(function (a, b) { return a.total - b.total; })
      .forEach(function (p) {
        var item = el("li");
        item.setAttribute("data-player", p.name);
        item.appendChild(el("span", "pname", p.name));
        item.appendChild(el("strong", "phone-total", " " + p.total));
        if (p.level !== null) { item.appendChild(el("span", "small", " \u00b7 level " + Math.min(p.level + 1, game.last_stage))); }
        list.appendChild(item);
      });
    box.appendChild(list);
    // The scoreboard's own "Record round N" names the server's next round; the phone's is
    // later, and that is the one its kept round screen opens.
    var record = board && state.next ? board.querySelector("a[href$='/rounds/new']") : null;
    if (record) { record.textContent = "Record " + word + " " + state.next.number; }
    box.appendChild(el("p", "small", state.next
      ? "Next: " + word + " " + state.next.number + ", " + state.next.dealer + " deals."
      : "The game ends with " + word + " " + last.number + "."));
    if (state.next && (form || stashed(id))) {
      var next = el("button", "button primary wide", "Record " + word + " " + state.next.number + " on this phone");
      next.type = "button";
      next.setAttribute("data-record-next", id);
      box.appendChild(next);
      // The board's own "Record round 2" names the round the server waits for, not the one this
      // phone records next: only the phone's button stays.
      var own = board && board.querySelector("a[href$='/rounds/new']");
      var line = own && own.closest("p");
      if (line) { line.hidden = true; line.setAttribute("data-phone-hid", ""); }
    }
    // A mistake in a round not yet sent: take it back out of the outbox (its draft stays, so
    // the round screen opens with what was entered).
    if (!sending[last.id]) {
      var undo = el("button", "button wide", "Undo " + word + " " + last.number + " (not yet sent)");
      undo.type = "button";
      undo.setAttribute("data-undo-waiting", last.id);
      box.appendChild(undo);
    }
  }
  document.addEventListener("click", function (event) {
    var undo = event.target.closest ? event.target.closest("[data-undo-waiting]") : null;
    if (!undo) { return; }
    var id = undo.getAttribute("data-undo-waiting");
    var entry = outbox().filter(function (e) { return e.id === id; })[0];
    if (!entry || sending[id]) { return; }
    drop(id);
    var form = document.querySelector("form.round-form[data-replay]");
    var board = document.querySelector("#board[data-replay]");
    if ((form && gameOf(form.getAttribute("action")) === entry.game) ||
        (board && board.getAttribute("data-game") === entry.game)) { recordNext(entry.game); }
    say(entry.word + " " + entry.number + " taken back: it was not sent.");
  });

  // ---- Recording without the server. The blank round screen of each game this phone keeps
  // score for is kept on the phone (fetched once from the scoreboard), so that a table whose
  // signal dropped can go on: the form is turned into the round the phone's replay says comes
  // next, and what is saved goes into the outbox like any round.
  // The copy is of this version of the app (app.js's address carries its content's hash): a
  // round screen kept by an older version is fetched again.
  var FORM = "scorekeeper-form", BUILD = (document.currentScript && document.currentScript.src) || "";
  var stashedFor = null;
  function stashed(id) {
    try {
      var copy = JSON.parse(localStorage.getItem(FORM) || "null");
      return copy && copy.game === id && copy.build === BUILD ? copy.html : null;
    } catch (e) { return null; }
  }
  function stash(id, html) {
    try { localStorage.setItem(FORM, JSON.stringify({ game: id, build: BUILD, html: html })); } catch (e) { /* private mode */ }
  }
  function keepBlankForm() {
    var board = document.querySelector("#board[data-replay]");
    var link = board && board.querySelector("a[href$='/rounds/new']");
    var id = board && board.getAttribute("data-game");
    if (!link || stashedFor === id || !window.DOMParser) { return; }
    if (stashed(id)) { stashedFor = id; return; }
    fetch(link.getAttribute("href"), { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : ""; })
      .then(function (html) {
        var form = html && new DOMParser().parseFromString(html, "text/html").querySelector("form.round-form[data-outbox]");
        if (form) { stash(id, form.outerHTML); stashedFor = id; }
      })
      .catch(function () { /* no signal: tried again on the next scoreboard */ });
  }
  // The scoreboard as last seen live, kept on the phone (the whole board, with the game's data for
  // the phone's own figures), to be shown without signal where the server's would be.
  var BOARD = "scorekeeper-board";
  function version(board) {
    var m = /[?&]v=([0-9]+)/.exec(board.getAttribute("hx-get") || "");
    return m ? Number(m[1]) : 0;
  }
  function keepBoard() {
    var main = document.querySelector("#main"), board = main && main.querySelector("#board[data-replay]");
    if (!board || kept || navigator.onLine === false) { return; }
    // The page as it stands, less what belongs to the moment: messages, the outbox's notes (drawn
    // again from the outbox), the undo bar (it needs the server).
    var copy = main.cloneNode(true);
    copy.querySelectorAll(".flashes, .outbox-note, .phone-figures, .needs-signal, [data-undo]").forEach(function (n) { n.remove(); });
    try {
      localStorage.setItem(BOARD, JSON.stringify({ game: board.getAttribute("data-game"), build: BUILD, at: Date.now(),
                                                   version: version(board), title: document.title, html: copy.innerHTML }));
    } catch (e) { /* private mode, or full */ }
  }
  function keptBoard(id) {
    try {
      var copy = JSON.parse(localStorage.getItem(BOARD) || "null");
      return copy && copy.game === id && copy.build === BUILD ? copy : null;
    } catch (e) { return null; }
  }
  function showKeptBoard(id, replace) {
    var copy = keptBoard(id), main = document.querySelector("#main");
    if (!copy || !main) { return false; }
    main.innerHTML = copy.html;
    kept = copy.at;
    document.body.setAttribute("data-kept-at", String(copy.at));
    document.title = copy.title;
    var address = "/games/" + id;
    if (location.pathname !== address) {
      if (replace) { history.replaceState({ offline: true }, "", address); } else { history.pushState({ offline: true }, "", address); }
    }
    init(main);
    keptPage();
    window.scrollTo(0, 0);
    return true;
  }
  // Without signal, a page of a game the server cannot give (the offline page, an older copy, a
  // round screen whose round already waits to be sent) gives way to the kept scoreboard.
  function gameInAddress() {
    var m = /^\/games\/([0-9]+)(\/|$)/.exec(location.pathname);
    return m ? m[1] : "";
  }
  function offlineLanding() {
    var id = gameInAddress() || (outbox()[0] || {}).game || "";
    var copy = id && keptBoard(id);
    if (!copy) { return; }
    var form = document.querySelector("form.round-form[data-outbox]");
    var board = document.querySelector("#board");
    if (document.querySelector("[data-offline-page]") || (kept && form && waiting(form)) ||
        (kept && board && copy.version > version(board))) {
      showKeptBoard(id, true);
    }
  }
  window.addEventListener("popstate", function () {
    var id = gameInAddress();
    if (id && location.pathname === "/games/" + id && (kept || navigator.onLine === false)) { showKeptBoard(id, true); }
  });

  // The next round on this phone: in the round screen on show, or in the kept blank one.
  function recordNext(id) {
    var main = document.querySelector("#main");
    var form = document.querySelector("form.round-form[data-replay]");
    var board = document.querySelector("#board[data-replay]");
    if (!form || gameOf(form.getAttribute("action")) !== id) {
      var html = stashed(id);
      if (!html || !board || !main) { return false; }
      var data = board.getAttribute("data-replay");
      main.innerHTML = html;
      form = main.querySelector("form.round-form");
      form.setAttribute("data-replay", data);
      history.pushState({ offline: true }, "", form.getAttribute("action"));
    }
    var phone = phoneState(form, id);
    if (!phone || !phone.state || !phone.state.next) { return false; }
    window.OfflineForm.advance(form, phone.game, phone.state.next);
    init(form.parentNode);
    window.scrollTo(0, 0);
    return true;
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-record-next]") : null;
    if (button) { recordNext(button.getAttribute("data-record-next")); return; }
    // "Record round 4" on a scoreboard without signal: the kept round screen instead.
    var link = event.target.closest ? event.target.closest("#board a[href$='/rounds/new']") : null;
    var board = link && link.closest("#board[data-replay]");
    if (board && (navigator.onLine === false || kept) && recordNext(board.getAttribute("data-game"))) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  // Save puts the round in the outbox and sends it from there (htmx does not send it too);
  // while it waits, Save cannot start another send.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form.round-form[data-outbox]")) { return; }
    if (!event.submitter || event.submitter.name !== "save") { return; }
    event.preventDefault();
    event.stopPropagation();
    if (waiting(form)) { return; }
    enqueue(form);
    saveDraft(form);
    flush();
  }, true);
  window.addEventListener("online", flush);
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("message", function (event) { if (event.data === "send-outbox") { flush(); } });
  }
  window.addEventListener("storage", function (event) { if (event.key === OUTBOX) { showOutbox(); } });
  setInterval(function () { if (outbox().length) { flush(); } }, 5000);

  // ---- New game: a seat appears as the last one gets a name (up to the table's limit), each
  // with its own "deals first", so the first dealer is chosen on the seats as they are typed.
  // A named seat gets its buttons to move up a seat and to leave the table (they post, and the
  // server rearranges the seats with the first dealer kept on the same person).
  function seatButtons(seat, index, name) {
    var up = seat.querySelector("button[name=up]"), drop = seat.querySelector("button[name=drop]");
    if (!name) {
      if (up) { up.remove(); }
      if (drop) { drop.remove(); }
      return;
    }
    if (!up && index > 0) {
      up = el("button", "icon", "\u2191");
      up.type = "submit"; up.name = "up"; up.value = String(index);
      seat.appendChild(up);
    }
    if (!drop) {
      drop = el("button", "icon", "\u2715");
      drop.type = "submit"; drop.name = "drop"; drop.value = String(index);
      seat.appendChild(drop);
    }
    if (up) { up.setAttribute("aria-label", "Move " + name + " up a seat"); }
    drop.setAttribute("aria-label", "Take " + name + " off the table");
  }

  document.addEventListener("input", function (event) {
    var list = event.target.closest ? event.target.closest("[data-seats]") : null;
    if (!list || !event.target.matches("input[name^=seat-]")) { return; }
    var all = Array.prototype.slice.call(list.querySelectorAll("li.seat"));
    var here = event.target.closest("li.seat");
    seatButtons(here, all.indexOf(here), event.target.value.trim());
    if (!event.target.value.trim()) { return; }
    var seats = list.querySelectorAll("li.seat");
    var last = seats[seats.length - 1];
    if (!last.contains(event.target) || seats.length >= Number(list.getAttribute("data-max"))) { return; }
    var n = seats.length;
    var seat = document.createElement("li");
    seat.className = "seat";
    var dot = last.querySelector(".dot").cloneNode(true);
    dot.className = "dot seat-" + (n % 8);
    var label = el("label", "visually-hidden", "Seat " + (n + 1));
    label.htmlFor = "seat-" + n;
    var input = last.querySelector("input[name^=seat-]").cloneNode(false);
    input.id = input.name = "seat-" + n;
    input.value = "";
    input.placeholder = "Seat " + (n + 1) + ": name";
    var pick = last.querySelector(".dealer-pick").cloneNode(true);
    var radio = pick.querySelector("input");
    radio.value = String(n);
    radio.checked = false;
    seat.append(dot, label, input, pick);
    list.appendChild(seat);
    var more = document.querySelector("[data-more-seats]");
    if (more && n + 1 >= Number(list.getAttribute("data-max"))) { more.hidden = true; }
  });

  // ---- Live scoreboard: no polling while the phone is hidden; poll at once when it is shown.
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (document.hidden && event.detail.elt.hasAttribute("data-poll")) { event.preventDefault(); }
  });

  // ---- Keep the screen awake while keeping score (where the browser allows it).
  var wakeLock = null;
  function wake() {
    if (!("wakeLock" in navigator) || document.hidden) { return; }
    var wanted = document.querySelector("[data-wake]");
    if (!wanted) {
      if (wakeLock) { wakeLock.release(); wakeLock = null; }
      return;
    }
    if (wakeLock) { return; }
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      lock.addEventListener("release", function () { wakeLock = null; });
    }).catch(function () { /* refused: battery saver, no gesture yet */ });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { return; }
    var board = document.querySelector("[data-poll]");
    if (board && window.htmx) { window.htmx.trigger(board, "poll-now"); }
    wake();
  });

  // ---- Lost signal: say so, in words that fit who is looking, keep what was entered, and try
  // again by itself. A page the service worker kept and shows without signal says how old it is.
  var banner = null, lost = false, kept = null;
  function say(text) {
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
  function keptWords() {
    return "Offline: " + (document.querySelector("#board") ? "the scoreboard" : "this page") + " as of " + clock(kept);
  }
  function offline(formSave) {
    lost = true;
    if (kept) { say(keptWords()); return; }
    say(formSave ? "Offline, retrying\u2026 nothing you entered is lost." : "Offline: reconnecting");
  }
  function backOnline() {
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
    say("Live again");
    banner._hide = setTimeout(function () { say(""); }, 4000);
  }

  // What needs the server is disabled on a kept page, with the reason, instead of doing nothing.
  function keptPage() {
    var main = document.querySelector("#main");
    if (!kept || !main || main.querySelector(".needs-signal")) { return; }
    var board = main.querySelector("#board[data-replay]");
    var canRecord = board && stashed(board.getAttribute("data-game"));
    var off = Array.prototype.filter.call(
      main.querySelectorAll("form:not(.round-form) button, a.button, .actions a, .round-table a"),
      function (item) { return !(canRecord && item.matches("#board a[href$='/rounds/new']")); });
    off.forEach(function (item) {
      if (item.tagName === "BUTTON") { item.disabled = true; } else { item.setAttribute("aria-disabled", "true"); }
      item.classList.add("is-offline");
    });
    if (off.length) {
      var why = el("p", "needs-signal", (canRecord ? "Rounds are recorded on this phone and sent later; corrections" :
                    "Recording, corrections") + ", undo and sharing need the signal: " +
                    "they work again by themselves when this phone is back online.");
      main.insertBefore(why, main.firstChild);
    }
    say(keptWords());
  }
  document.addEventListener("click", function (event) {
    var off = event.target.closest ? event.target.closest("[aria-disabled=true]") : null;
    if (off) { event.preventDefault(); event.stopPropagation(); }
  }, true);

  document.addEventListener("htmx:sendError", function (event) {
    var elt = event.detail.elt;
    var form = elt.closest ? elt.closest("form") : null;
    // (A round or a correction being saved is not sent by htmx but from the outbox, which
    // says so itself when it cannot reach the server.)
    var record = elt.closest ? elt.closest("#board[data-replay] a[href$='/rounds/new']") : null;
    if (record && recordNext(record.closest("#board").getAttribute("data-game"))) { offline(); return; }
    offline(form && form.classList.contains("round-form"));
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.xhr && event.detail.xhr.status) { backOnline(); }
  });
  window.addEventListener("online", function () { if (kept) { backOnline(); } });

  // The offline page: what this phone still has to send (nothing, or the rounds in its outbox).
  function waitingList() {
    var spot = document.querySelector("[data-waiting]");
    if (!spot) { return; }
    // Every offline page leads back: to this address again, and to each game this phone knows.
    var again = document.querySelector("[data-try-again]");
    if (again) { again.setAttribute("href", location.pathname + location.search); }
    var back = document.querySelector("[data-way-back]");
    if (back && !back.querySelector("[data-game-link]")) {
      var games = [gameInAddress()].concat(outbox().map(function (e) { return e.game; })).filter(function (id, i, all) {
        return id && all.indexOf(id) === i;
      });
      games.forEach(function (id) {
        var link = el("a", "button primary", "Back to game " + id);
        link.href = "/games/" + id;
        link.setAttribute("data-game-link", id);
        back.insertBefore(link, back.firstChild);
      });
    }
    var waiting = outbox();
    spot.textContent = "";
    if (!waiting.length) { spot.textContent = "Nothing from this phone is waiting to be sent."; return; }
    var list = el("ul", "waiting");
    waiting.forEach(function (entry) { list.appendChild(el("li", "", describe(entry, true) + " (" + entry.holds + ")")); });
    spot.appendChild(el("strong", "", "Waiting to be sent from this phone:"));
    spot.appendChild(list);
  }

  // ---- History and ratings: a filter applies as soon as it is changed (htmx, on "change"),
  // so its Show button, there for a phone without scripts, is hidden where htmx runs.
  function applyOnChange(root) {
    if (!window.htmx) { return; }
    (root || document).querySelectorAll("form.filters[hx-get] [data-show]").forEach(function (b) { b.hidden = true; });
  }
  document.addEventListener("DOMContentLoaded", function () { applyOnChange(document); });
  document.addEventListener("htmx:afterSettle", function (event) { applyOnChange(event.target); });

  function init(root) {
    (root || document).querySelectorAll("form.round-form").forEach(function (form) {
      if (restoreDraft(form) && !waiting(form)) { sayKept(form); }
      rows(form).forEach(refresh);
      dock(form);
      ending(form);
      recheck(form);
    });
    wake();
    showOutbox();
    keepBlankForm();
    keepBoard();
  }
  document.addEventListener("DOMContentLoaded", function () {
    kept = Number(document.body.getAttribute("data-kept-at")) || null;
    init(document);
    if (kept || document.querySelector("[data-offline-page]")) { offlineLanding(); }
    keptPage();
    waitingList();
    var sw = document.body.getAttribute("data-sw");
    if (sw && "serviceWorker" in navigator) { navigator.serviceWorker.register(sw, { scope: "/" }).catch(function () {}); }
    takeSent().then(flush);
    // The offline page tries again every few seconds (once nothing waits to be sent: a round
    // waiting is sent first, and its answer takes this page's place).
    if (document.querySelector("[data-offline-page]")) {
      setInterval(function () {
        if (document.querySelector("[data-offline-page]") && !outbox().length) { location.reload(); }
      }, 5000);
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) { init(event.target); });

  // ---- The undo bar's answer ("Round 4 restored.") is shown at the top of the page; the person
  // who tapped Restore is looking at the foot. While the message is out of sight a copy of it
  // stands where the bar was, for a few seconds (the page itself does not move under the thumb).
  var fromBar = false;
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.closest && event.detail.elt.closest("[data-undo]")) { fromBar = true; }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!fromBar || event.target.id !== "main") { return; }
    fromBar = false;
    var flashes = event.target.querySelector(".flashes");
    if (!flashes) { return; }
    var box = flashes.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= window.innerHeight) { return; }
    var copy = flashes.cloneNode(true);
    copy.classList.add("flash-float");
    copy.removeAttribute("role");
    copy.setAttribute("aria-hidden", "true");  // the message itself is announced, once
    document.body.appendChild(copy);
    setTimeout(function () { copy.remove(); }, 5000);
  });
})();
