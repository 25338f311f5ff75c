// The game-file drop zone of a match page: a file dropped on the zone goes into its file input,
// and the file (chosen or dropped) is looked at before it is sent: a file over the size limit is
// not sent at all, and one that is not a tantrix-game/1 record is said to be so at once. Without
// this script the plain file input works the same, and the server says the same things. A file,
// not an inline script: the Content-Security-Policy allows 'self' only.
(function () {
  "use strict";

  function setUp(zone) {
    var input = zone.querySelector("input[type=file]");
    var status = zone.querySelector(".drop-status");
    var hint = zone.querySelector(".drop-hint");
    var maxBytes = parseInt(zone.getAttribute("data-max-bytes"), 10) || 0;
    if (!input || !status) { return; }
    if (hint) { hint.hidden = false; }
    zone.classList.add("drop-zone-ready");

    function say(text, isError) {
      status.textContent = text;
      status.classList.toggle("error", Boolean(isError));
    }

    function look(file) {
      if (!file) { say("", false); return; }
      if (maxBytes && file.size > maxBytes) {
        input.value = "";
        say(zone.getAttribute("data-too-big"), true);
        return;
      }
      file.text().then(function (text) {
        var record = null;
        try { record = JSON.parse(text.replace(/^\uFEFF/, "")); } catch (e) { record = null; }
        if (record && typeof record === "object" && record.format === "tantrix-game/1") {
          say(zone.getAttribute("data-ready") + " " + file.name, false);
        } else {
          say(zone.getAttribute("data-not-record"), true);
        }
      }, function () { say(zone.getAttribute("data-not-record"), true); });
    }

    input.addEventListener("change", function () { look(input.files[0]); });
    ["dragenter", "dragover"].forEach(function (name) {
      zone.addEventListener(name, function (event) {
        event.preventDefault();
        zone.classList.add("drop-zone-over");
      });
    });
    ["dragleave", "dragend", "drop"].forEach(function (name) {
      zone.addEventListener(name, function () { zone.classList.remove("drop-zone-over"); });
    });
    zone.addEventListener("drop", function (event) {
      event.preventDefault();
      var files = event.dataTransfer && event.dataTransfer.files;
      if (!files || !files.length) { return; }
      input.files = files;
      look(files[0]);
    });
  }

  document.querySelectorAll("[data-drop-zone]").forEach(setUp);
})();
