// The record page polls the record's API address until adjudication is done, then reloads.
// A file rather than an inline script: the Content-Security-Policy allows scripts from 'self' only.
(function () {
  "use strict";
  var el = document.getElementById("verdict");
  var url = el && el.getAttribute("data-poll");
  if (!url) { return; }
  var tries = 0;
  function poll() {
    fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (data) {
        if (data.status === "valid" || data.status === "invalid") { window.location.reload(); return; }
        var status = document.getElementById("record-status");
        // The API says "pending"; the page says what the status is called (data-labels).
        var labels = JSON.parse(status.getAttribute("data-labels") || "{}");
        status.textContent = labels[data.status] || data.status;
        if (++tries < 300) { setTimeout(poll, tries < 20 ? 500 : 3000); }
      })
      .catch(function () { if (++tries < 300) { setTimeout(poll, 3000); } });
  }
  setTimeout(poll, 300);
})();
