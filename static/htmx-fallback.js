// Tables often have no signal: when the CDN copy of htmx did not load, load our own.
// document.write from a parser-blocking script keeps htmx's normal start-up.
if (!window.htmx) {
  var src = document.currentScript.getAttribute("data-src");
  document.write('<script src="' + src + '"><\/script>');
}
