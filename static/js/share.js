// The phone's own share sheet (Web Share), where the browser has one (over HTTPS, not on a
// plain-HTTP network address): a button beside a link hands the link to it, to send by the
// phone's messenger. Without one the button stays hidden; the link and its QR code are there.
// main.js imports it where a page has such a button (the share page), or a result card to share.

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

// A result card's link (a[data-share-file], "Share the result"): a plain link that downloads the
// picture, everywhere. Where the phone can share a file (navigator.canShare({files})), a tap
// hands its share sheet the picture itself instead, fetched as the page is drawn: the sheet must
// open in the tap, and a download started in the tap would end after the browser's leave to open
// it had run out. The sheet closed without sharing: nothing. Refused otherwise: the download.
// get: the browser's fetch.
export function offerFile(root, nav, get) {
  if (typeof nav.canShare !== "function" || typeof nav.share !== "function" || typeof File !== "function") { return; }
  root.querySelectorAll("a[data-share-file]").forEach(function (link) {
    if (link.getAttribute("data-share-ready")) { return; }
    link.setAttribute("data-share-ready", "1");
    var file = null;
    get(link.getAttribute("href")).then(function (answer) { return answer.ok ? answer.blob() : null; })
      .then(function (blob) {
        if (!blob) { return; }
        var picture = new File([blob], link.getAttribute("download") || "result.png", { type: "image/png" });
        if (nav.canShare({ files: [picture] })) { file = picture; }
      }, function () { /* not fetched (no signal): the link downloads it when there is */ });
    link.addEventListener("click", function (event) {
      if (!file) { return; }
      event.preventDefault();
      nav.share({ files: [file], title: link.getAttribute("data-share-title") }).catch(function (error) {
        if (error && error.name === "AbortError") { return; }
        file = null;
        link.click();
      });
    });
  });
}
