// The round screen's docked keypad: each tap adds a card to the selected player's row, chips
// remove one, the penalty updates as you go, and what the phone can count wrong is said on the
// row at once. Without this script the same buttons post to the server, which does the same.
// Nothing happens at import: main.js installs the listeners (and says what follows a change)
// where a round screen is on the page.
import { el, elide, word } from "./banner.js";
import { handScore } from "./hand-score.js";

export function formOf(el) { return el && el.closest ? el.closest("form.round-form") : null; }

// The engine's table for this game (presenters.card_values): what each card counts at each
// seat's stage, its labels and spellings, the bonuses' points, what the player who went out
// scores, how many of each card are in play. This script holds no rule of its own: it adds up.
export function table(form) {
  if (!form._cards) { form._cards = JSON.parse(form.getAttribute("data-values")); }
  return form._cards;
}

// What each card counts for the player in `seat` this round: the values of the seat's stage.
export function valuesAt(cards, seat) {
  var number = cards.seats && cards.seats[seat];
  return number ? cards.stages[number - 1].values : {};
}

// The cards of a typed hand, read as the server reads them: each word a card, or (where the
// table says its deck reads them apart) a run of cards typed without spaces ("AK77"). A word
// that is no card stays one token with no rank; a card the game does not play (a joker without
// jokers) has a rank, no value.
export function readCards(cards, seat, text) {
  var values = valuesAt(cards, seat), out = [];
  text.split(/[\s,;]+/).filter(Boolean).forEach(function (t) {
    var parts = cards.aliases[t.toLowerCase()] ? [t] : (cards.runs && run(t.toLowerCase(), cards.aliases)) || [t];
    parts.forEach(function (part) {
      var rank = cards.aliases[part.toLowerCase()];
      out.push({ text: rank ? cards.labels[rank] || rank : part.toUpperCase(), rank: rank || null,
                 value: rank && values[rank] !== undefined ? values[rank] : null });
    });
  });
  return out;
}
// The longest spellings first, so that "joker" is one card and not a J.
function run(word, aliases) {
  var longest = Object.keys(aliases).reduce(function (most, alias) { return Math.max(most, alias.length); }, 1);
  var parts = [], at = 0;
  while (at < word.length) {
    var len = Math.min(longest, word.length - at);
    while (len > 0 && !aliases[word.substr(at, len)]) { len -= 1; }
    if (!len) { return null; }
    parts.push(word.substr(at, len));
    at += len;
  }
  return parts;
}

// One seat's score for the round as the row shows it, added up by hand-score.js: what the
// player who went out scores, or the points counted by hand, or the cards' values, plus the
// points of the bonuses ticked (entry: {out, points, hand, bonuses: [keys]}); "?" while a card or
// bonus has no value here, points typed that are no number as typed (the server says why).
export function score(cards, seat, entry) {
  var typed = entry.out ? "" : (entry.points || "").trim();
  var hand = { out: !!entry.out, points: typed ? Number(typed) : null, bonuses: entry.bonuses || [],
               cards: typed || entry.out ? [] : readCards(cards, seat, entry.hand || "").map(function (card) { return card.rank; }) };
  var added = handScore(cards, valuesAt(cards, seat), hand);
  if (added.missing) { return "?"; }
  if (typed && !/^[0-9]+$/.test(typed)) { return typed; }
  return String(added.score);
}

export function cardsOf(form, row) { return readCards(table(form), Number(row.getAttribute("data-seat")), field(row, "hand").value); }

export function rows(form) { return Array.prototype.slice.call(form.querySelectorAll(".player[data-seat]")); }
export function field(row, name) { return row.querySelector("input[name=" + name + "-" + row.getAttribute("data-seat") + "]"); }
export function nameOf(row) { return row.querySelector(".pname").textContent; }
export function isOut(row) { var r = row.querySelector("input[name=went_out]"); return r && r.checked; }
export function selected(form) {
  var radio = form.querySelector("input[name=seat]:checked");
  return radio ? radio.closest(".player") : rows(form)[0];
}
function needsHand(row) { return !isOut(row) && !field(row, "hand").value.trim() && !field(row, "points").value.trim(); }


// The keys of the bonuses ticked for a row.
function bonusesOf(row) {
  return Array.prototype.map.call(row.querySelectorAll("input[name^=bonus-]:checked"), function (box) { return box.value; });
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

export function refresh(row) {
  var form = formOf(row);
  if (!form) { return; }
  lockMade(row);
  var points = field(row, "points");
  var chips = row.querySelector("[data-chips]"), output = row.querySelector(".penalty");
  var list = cardsOf(form, row);
  chips.textContent = "";
  if (isOut(row)) {
    chips.appendChild(el("span", "note", word("went_out", "went out")));
  } else if (points.value.trim()) {
    chips.appendChild(el("span", "note", points.value.trim() === "0" ? word("no_cards", "no cards") : word("counted", "counted by hand")));
  } else {
    list.forEach(function (card) { chips.appendChild(el("span", card.value === null ? "chip bad" : "chip", card.text)); });
    if (!list.length) { chips.appendChild(el("span", "note muted", word("no_cards_yet", "no cards yet"))); }
  }
  output.textContent = score(table(form), Number(row.getAttribute("data-seat")),
                             { out: isOut(row), points: points.value, hand: field(row, "hand").value, bonuses: bonusesOf(row) });
}

// The keypad's words in the page's language, which the page gives it ({name}, {card} to fill);
// English where a page gives none.
var ENGLISH = {
  keypad: "Cards for {name}", add: "Add {card} to {name}", remove: "Remove {card} from {name}'s hand",
  back: "Take the last card off {name}'s hand", clear: "Clear {name}'s hand", none: "{name} has no cards left",
  type: "Type {name}'s cards or points", empty: "tap the cards left in the hand", out: "went out: no cards",
};
function say(form, word, values) {
  var pad = form.querySelector("[data-keypad]");
  var given = {};
  try { given = JSON.parse(pad.getAttribute("data-words") || "{}"); } catch (e) { given = {}; }
  // The names go in after the page's words, so French elides "de" before them as banner.js's word() does.
  return elide((given[word] || ENGLISH[word]).replace(/\{(\w+)\}/g, function (whole, key) {
    return values && key in values ? values[key] : whole;
  }), values);
}

// The dock: whose hand the keypad types into, that hand's chips (a tap removes one), and
// every key's name for a screen reader ("Add K to Ben").
export function dock(form) {
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
    chip.setAttribute("aria-label", say(form, "remove", { card: card.text, name: name }));
    hand.appendChild(chip);
  });
  if (!list.length) {
    hand.appendChild(el("span", "muted small", say(form, isOut(row) ? "out" : "empty")));
  }
  // The line scrolls sideways: the card just tapped (the last) is the one kept in sight.
  hand.scrollLeft = hand.scrollWidth;
  form.querySelector("[data-keypad]").setAttribute("aria-label", say(form, "keypad", { name: name }));
  form.querySelectorAll("button[data-rank]").forEach(function (key) {
    key.setAttribute("aria-label", say(form, "add", { card: key.getAttribute("data-label"), name: name }));
  });
  form.querySelectorAll("button[data-edit]").forEach(function (key) {
    key.setAttribute("aria-label", say(form, key.getAttribute("data-edit"), { name: name }));
  });
}

function select(form, row) {
  var radio = row.querySelector("input[name=seat]");
  if (radio) { radio.checked = true; }
  rows(form).forEach(function (r) {
    if (r !== row) { r.classList.remove("typing"); r.querySelector(".typed").hidden = true; }
  });
  dock(form);
  // Six players with bonuses are more than one screen: the row typed for comes up above the
  // keypad (main's scroll-padding keeps it clear of the dock).
  if (row.scrollIntoView) { row.scrollIntoView({ block: "nearest" }); }
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
export function ending(form) {
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
  note.textContent = reasons.length ? word("ending", "Saving ends the game: {reasons}.", { reasons: reasons.reduce(function (all, one) {
    return word("and", "{names} and {last}", { names: all, last: one });
  }) }) : "";
}

// ---- Errors that hold now, not when Save was last tapped. What the phone can count itself (a
// word that is no card, more of a card than the game's decks or jokers hold: said on every row
// that holds one) is worked out on every change. The server's own words for those go at the
// first change, and its other words for a row go when that row's entry changes.
function problems(form) {
  var limits = table(form).in_play, found = {}, held = {}, total = {}, label = {};
  rows(form).forEach(function (row) {
    var seat = row.getAttribute("data-seat"), name = nameOf(row);
    found[seat] = [];
    if (isOut(row) || field(row, "points").value.trim()) { return; }
    cardsOf(form, row).forEach(function (card) {
      if (!card.rank) {
        found[seat].push(word("not_a_card", '{name}: "{card}" is not a card.', { name: name, card: card.text }));
      } else if (card.value === null) {
        found[seat].push(word("not_in_game", "{name}: {card} is not a card of this game.", { name: name, card: card.text }));
      } else {
        total[card.rank] = (total[card.rank] || 0) + 1;
        label[card.rank] = card.text;
        (held[card.rank] = held[card.rank] || {})[seat] = true;
      }
    });
  });
  Object.keys(total).forEach(function (rank) {
    var limit = limits.cards[rank];
    if (limit === undefined || total[rank] <= limit) { return; }
    var key = limits.jokers.indexOf(rank) >= 0 ? (limit === 1 ? "too_many_joker" : "too_many_jokers") : (limits.decks === 1 ? "too_many_deck" : "too_many_decks");
    var but = { too_many_joker: "1 joker in play", too_many_jokers: "{limit} jokers in play", too_many_deck: "1 deck holds only {limit} of {rank}",
                too_many_decks: "{decks} decks hold only {limit} of {rank}" }[key];
    Object.keys(held[rank]).forEach(function (seat) {
      var row = form.querySelector(".player[data-seat='" + seat + "']");
      found[seat].push(word(key, "{name}: {total} \u00d7 {card} in this round, but " + but + ".", { name: nameOf(row), total: total[rank],
        card: label[rank], limit: limit, decks: limits.decks, rank: label[rank] }));
    });
  });
  return found;
}
export function recheck(form, row) {
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

// What follows every change the scorekeeper makes (the draft kept): main.js says.
var afterChange = function () {};

function changed(form, row) {
  if (row) { refresh(row); }
  dock(form);
  ending(form);
  recheck(form, row);
  afterChange(form);
}

// The whole form drawn as its fields stand: as the server sent it, or with a draft put back.
export function redraw(form) {
  rows(form).forEach(refresh);
  dock(form);
  ending(form);
  recheck(form);
}

export function install(onChange) {
  afterChange = onChange;
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
}
