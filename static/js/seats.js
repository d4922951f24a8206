// New game: a seat appears as the last one gets a name (up to the table's limit), each with
// its own "deals first", so the first dealer is chosen on the seats as they are typed. A named
// seat gets its buttons to move up a seat and to leave the table (they post, and the server
// rearranges the seats with the first dealer kept on the same person).
// Nothing happens at import: main.js installs the listener where the seats are on the page.
import { el, word } from "./banner.js";

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

// A seat's name has changed: its buttons follow, and a blank seat follows the last one named.
function named(input) {
  var list = input.closest ? input.closest("[data-seats]") : null;
  if (!list || !input.matches("input[name^=seat-]")) { return; }
  var all = Array.prototype.slice.call(list.querySelectorAll("li.seat"));
  var here = input.closest("li.seat");
  seatButtons(here, all.indexOf(here), input.value.trim());
  if (!input.value.trim()) { return; }
  var seats = list.querySelectorAll("li.seat");
  var last = seats[seats.length - 1];
  if (!last.contains(input) || seats.length >= Number(list.getAttribute("data-max"))) { return; }
  var n = seats.length;
  var seat = document.createElement("li");
  seat.className = "seat";
  var dot = last.querySelector(".dot").cloneNode(true);
  dot.className = "dot";  // no colour before a name: the server gives the player's own
  dot.id = "seat-dot-" + n;
  var label = el("label", "visually-hidden", word("seat", "Seat {number}", { number: n + 1 }));
  label.htmlFor = "seat-" + n;
  var blank = last.querySelector("input[name^=seat-]").cloneNode(false);
  blank.id = blank.name = "seat-" + n;
  blank.value = "";
  blank.placeholder = word("seat_name", "Seat {number}: name", { number: n + 1 });
  var pick = last.querySelector(".dealer-pick").cloneNode(true);
  var radio = pick.querySelector("input");
  radio.value = String(n);
  radio.checked = false;
  seat.append(dot, label, blank, pick);
  list.appendChild(seat);
  var more = document.querySelector("[data-more-seats]");
  if (more && n + 1 >= Number(list.getAttribute("data-max"))) { more.hidden = true; }
}

export function install() {
  document.addEventListener("input", function (event) { named(event.target); });
  // This part arrives after the page: names typed before it came are caught up with, or the
  // seat after them would be missing (and the colours the server sends for it find no place).
  document.querySelectorAll("[data-seats] input[name^=seat-]").forEach(named);
}
