// Tables often have no signal: when the CDN copy of htmx did not load, load our own.
// document.write from a parser-blocking script keeps htmx's normal start-up.
// A classic script, not a module of js/: a module runs after the page is parsed and may not
// call document.write, and htmx must be there before the page's own script starts.
if (!window.htmx) {
  var src = document.currentScript.getAttribute("data-src");
  document.write('<script src="' + src + '"><\/script>');
}
