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

  function init(root) {
    (root || document).querySelectorAll("form.round-form fieldset.player").forEach(refresh);
  }
  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:afterSettle", function (event) { init(event.target); });
})();
