// The phone's own share sheet (Web Share), where the browser has one (over HTTPS, not on a
// plain-HTTP network address): a button beside a link hands the link to it, to send by the
// phone's messenger. Without one the button stays hidden; the link and its QR code are there.
// main.js imports it where a page has such a button (the share page).

// nav: the browser's navigator (its share, if any); root: the page or part just drawn.
export function offer(root, nav) {
  if (typeof nav.share !== "function") { return; }
  root.querySelectorAll("button[data-share-url]").forEach(function (button) {
    if (button.getAttribute("data-share-ready")) { return; }
    button.setAttribute("data-share-ready", "1");
    button.parentNode.hidden = false;
    button.addEventListener("click", function () {
      nav.share({ title: button.getAttribute("data-share-title"), url: button.getAttribute("data-share-url") })
        .catch(function () { /* the sheet closed without sharing: nothing to say */ });
    });
  });
}
