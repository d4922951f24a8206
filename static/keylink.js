// A link that carries a key (an edit link, the club link) has it after "#key=": browsers
// never send that part to a server (nor to its logs) and this drops it from the address bar
// and the history at once, then posts the key with the page's form.
// A classic script, not a module of js/: it runs where it stands, under the form, and posts it
// while the page is still loading, so that the page the form leads to takes the key page's
// place in the history (Back does not lead to an emptied key form). A module runs after the
// page is parsed, and its post came once the page had loaded: a history entry more.
(function () {
  "use strict";
  var form = document.querySelector("form[data-key-form]");
  if (!form || form.getAttribute("data-key-sent")) { return; }
  var field = form.querySelector("input[name=key]");
  var match = /(?:^#|&)key=([^&]+)/.exec(location.hash);
  if (match) { field.value = decodeURIComponent(match[1]); }
  if (location.hash || location.search) {
    // Also an old "?key=" link: the address kept in the history is the page's, without the key.
    history.replaceState(null, "", location.pathname);
  }
  if (field.value && !form.querySelector("[aria-invalid]")) {
    form.setAttribute("data-key-sent", "1");
    form.requestSubmit ? form.requestSubmit() : form.submit();
  }
})();
