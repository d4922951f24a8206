// The live scoreboard: no polling while the phone is hidden, a poll at once when it is shown;
// and the screen kept awake while keeping score (where the browser allows it).
// Nothing happens at import: main.js installs the listeners.
var wakeLock = null;
export function wake() {
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

export function install() {
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (document.hidden && event.detail.elt.hasAttribute("data-poll")) { event.preventDefault(); }
  });
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { return; }
    var board = document.querySelector("[data-poll]");
    if (board && window.htmx) { window.htmx.trigger(board, "poll-now"); }
    wake();
  });
}
