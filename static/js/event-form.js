// Show only the settings of the chosen format (the server ignores none of them: plain HTML works).
// A file rather than an inline script: the Content-Security-Policy allows scripts from 'self' only.
(function () {
  "use strict";
  var select = document.getElementById("id_format");
  if (!select) { return; }
  function sync() {
    document.querySelectorAll("fieldset[data-formats]").forEach(function (fs) {
      var has = fs.querySelector(".has-error");
      fs.hidden = !has && fs.getAttribute("data-formats").split(" ").indexOf(select.value) < 0;
    });
  }
  select.addEventListener("change", sync);
  sync();
})();
