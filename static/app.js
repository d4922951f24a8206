// The card keypad: each tap adds a card, chips remove one, the penalty updates as you go.
// Without this script the same buttons post to the server, which does the same.
(function () {
  "use strict";

  function formOf(el) { return el.closest("form.round-form"); }

  function table(form) {
    if (!form._cards) { form._cards = JSON.parse(form.getAttribute("data-values")); }
    return form._cards;
  }

  function tokens(text, cards) {
    return text.split(/[\s,;]+/).filter(Boolean).map(function (t) {
      var rank = cards.aliases[t.toLowerCase()];
      return { text: rank || t.toUpperCase(), value: rank ? cards.values[rank] : null };
    });
  }

  function refresh(fieldset) {
    var form = formOf(fieldset);
    if (!form) { return; }
    var seat = fieldset.getAttribute("data-seat");
    var input = fieldset.querySelector("#hand-" + seat);
    var points = fieldset.querySelector("#points-" + seat);
    var chips = fieldset.querySelector("[data-chips]");
    var output = fieldset.querySelector("#pen-" + seat);
    var name = fieldset.querySelector(".pname").textContent;
    var list = tokens(input.value, table(form));
    chips.textContent = "";
    var sum = 0, unknown = false;
    list.forEach(function (card, index) {
      var chip = document.createElement("button");
      chip.type = "button";
      chip.className = "chip";
      chip.textContent = card.text;
      chip.setAttribute("data-remove", index);
      chip.setAttribute("aria-label", "Remove " + card.text + " from " + name + "'s hand");
      chips.appendChild(chip);
      if (card.value === null || card.value === undefined) { unknown = true; } else { sum += card.value; }
    });
    if (!list.length) {
      var none = document.createElement("span");
      none.className = "muted small";
      none.textContent = "No cards yet";
      chips.appendChild(none);
    }
    output.textContent = points.value.trim() ? points.value.trim() : (unknown ? "?" : String(sum));
  }

  document.addEventListener("click", function (event) {
    var key = event.target.closest("button[data-rank]");
    var chip = event.target.closest("button[data-remove]");
    if (!key && !chip) { return; }
    var fieldset = event.target.closest("fieldset.player");
    if (!fieldset) { return; }
    event.preventDefault();
    var input = fieldset.querySelector("input[name^=hand-]");
    if (key) {
      input.value = (input.value.trim() + " " + key.getAttribute("data-rank")).trim();
    } else {
      var parts = input.value.split(/[\s,;]+/).filter(Boolean);
      parts.splice(Number(chip.getAttribute("data-remove")), 1);
      input.value = parts.join(" ");
    }
    refresh(fieldset);
  });

  document.addEventListener("input", function (event) {
    var fieldset = event.target.closest("fieldset.player");
    if (fieldset && event.target.matches("input[name^=hand-], input[name^=points-]")) { refresh(fieldset); }
  });

  document.addEventListener("change", function (event) {
    if (!event.target.matches("input[name=went_out]")) { return; }
    var form = formOf(event.target);
    form.querySelectorAll("fieldset.player").forEach(function (fs) {
      var out = fs.getAttribute("data-seat") === event.target.value;
      fs.classList.toggle("is-out", out);
      var made = fs.querySelector("input[name^=achieved-]");
      if (made && out) { made.checked = true; }
    });
  });

  // ---- Nothing typed is lost: the round form is kept in this tab until it is saved.
  function draftKey(form) {
    var number = form.querySelector("input[name=number]");
    return "scorekeeper-draft:" + form.getAttribute("action") + "#" + (number ? number.value : "");
  }

  function saveDraft(form) {
    var data = {};
    form.querySelectorAll("input[name^=hand-], input[name^=points-]").forEach(function (i) { data[i.name] = i.value; });
    form.querySelectorAll("input[name=went_out]:checked, input[name^=achieved-]:checked").forEach(function (i) {
      data[i.name + "=" + i.value] = true;
    });
    try { sessionStorage.setItem(draftKey(form), JSON.stringify(data)); } catch (e) { /* private mode */ }
  }

  function restoreDraft(form) {
    var pristine = !form.querySelector("input[name=went_out]:checked") &&
      !Array.prototype.some.call(form.querySelectorAll("input[name^=hand-], input[name^=points-]"), function (i) { return i.value; });
    if (!pristine) { return; }
    var raw = null;
    try { raw = sessionStorage.getItem(draftKey(form)); } catch (e) { return; }
    if (!raw) { return; }
    var data = JSON.parse(raw);
    form.querySelectorAll("input[name^=hand-], input[name^=points-]").forEach(function (i) {
      if (data[i.name]) { i.value = data[i.name]; }
    });
    form.querySelectorAll("input[type=radio], input[type=checkbox]").forEach(function (i) {
      if (data[i.name + "=" + i.value]) { i.checked = true; i.dispatchEvent(new Event("change", { bubbles: true })); }
    });
  }

  document.addEventListener("input", function (event) {
    var form = formOf(event.target);
    if (form) { saveDraft(form); }
  });
  document.addEventListener("change", function (event) {
    var form = formOf(event.target);
    if (form) { saveDraft(form); }
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

  // ---- Lost signal: say so, keep what was entered, and try again by itself.
  var banner = null;
  function offline(show) {
    banner = banner || document.querySelector(".offline-note");
    if (!banner) {
      banner = document.createElement("p");
      banner.className = "offline-note";
      banner.setAttribute("role", "status");
      banner.textContent = "Offline, retrying\u2026 nothing you entered is lost.";
      document.body.appendChild(banner);
    }
    banner.hidden = !show;
  }

  document.addEventListener("htmx:sendError", function (event) {
    offline(true);
    var elt = event.detail.elt;
    var form = elt.closest ? elt.closest("form") : null;
    if (form && form.classList.contains("round-form")) {
      saveDraft(form);
      var submitter = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent &&
        event.detail.requestConfig.triggeringEvent.submitter;
      setTimeout(function () {
        if (document.body.contains(form)) { form.requestSubmit(submitter || form.querySelector("button[name=save]")); }
      }, 3000);
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.xhr && event.detail.xhr.status) { offline(false); }
  });

  function init(root) {
    (root || document).querySelectorAll("form.round-form").forEach(restoreDraft);
    (root || document).querySelectorAll("form.round-form fieldset.player").forEach(refresh);
    wake();
  }
  document.addEventListener("DOMContentLoaded", function () {
    init(document);
    var sw = document.body.getAttribute("data-sw");
    if (sw && "serviceWorker" in navigator) { navigator.serviceWorker.register(sw, { scope: "/" }).catch(function () {}); }
    if (document.querySelector("[data-offline-page]")) {
      setTimeout(function () { location.reload(); }, 5000);
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) { init(event.target); });
})();
