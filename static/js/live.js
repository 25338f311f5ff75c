// Live regions: while an event runs, a page's [data-live-url] region asks the server for its
// fragment every data-live-seconds and swaps it in, without reloading the page. The server
// answers 304 while nothing changed (If-None-Match: the fragment's ETag) and sends
// X-Live-Finished once nothing more will change, which ends the polling. Polling pauses while
// the tab is hidden. A file, not an inline script: the Content-Security-Policy allows 'self'.
(function () {
  "use strict";
  var MAX_FAILURES = 20;

  function watch(region) {
    var url = region.getAttribute("data-live-url");
    var seconds = parseFloat(region.getAttribute("data-live-seconds")) || 15;
    var version = region.getAttribute("data-live-version") || "";
    var failures = 0;
    var timer = null;

    function schedule(delay) {
      clearTimeout(timer);
      timer = setTimeout(poll, delay);
    }

    function poll() {
      if (document.hidden) { return; }  // resumed by visibilitychange
      var headers = {"X-Requested-With": "live"};
      if (version) { headers["If-None-Match"] = '"' + version + '"'; }
      fetch(url, {credentials: "same-origin", headers: headers, cache: "no-cache"})
        .then(function (response) {
          if (response.status === 304) { return {response: response, html: null}; }
          if (!response.ok) { throw new Error("HTTP " + response.status); }
          return response.text().then(function (html) { return {response: response, html: html}; });
        })
        .then(function (result) {
          failures = 0;
          var etag = result.response.headers.get("ETag");
          if (etag) { version = etag.replace(/"/g, ""); }
          if (result.html !== null) {
            var scroller = region.querySelector(".bracket-scroll");
            var left = scroller ? scroller.scrollLeft : 0;
            var top = scroller ? scroller.scrollTop : 0;
            region.innerHTML = result.html;
            region.setAttribute("data-live-version", version);
            // First the listeners (bracket.js puts the reader's zoom back), then the place the
            // reader had scrolled to, which is a place at that zoom.
            region.dispatchEvent(new CustomEvent("live:updated", {bubbles: true}));
            scroller = region.querySelector(".bracket-scroll");
            if (scroller) {
              scroller.scrollLeft = left;
              scroller.scrollTop = top;
              if (scroller.scrollWidth > scroller.clientWidth && scroller.closest(".bracket-section")) {
                scroller.closest(".bracket-section").classList.add("overflows");
              }
            }
          }
          if (result.response.headers.get("X-Live-Finished") === "1") {
            region.removeAttribute("data-live-url");
            region.setAttribute("data-live-finished", "1");
            return;
          }
          schedule(seconds * 1000);
        })
        .catch(function () {
          // The server or the network is away: try again, less often, then give up.
          if (++failures < MAX_FAILURES) { schedule(seconds * 1000 * Math.min(failures + 1, 8)); }
        });
    }

    document.addEventListener("visibilitychange", function () {
      if (!document.hidden && region.hasAttribute("data-live-url")) { schedule(0); }
    });
    schedule(seconds * 1000);
  }

  function showCurrentRound(root) {
    // When the bracket is wider than the screen it scrolls sideways: bring the round in play
    // into view and show the hint that there is more.
    var scrollers = root.querySelectorAll(".bracket-scroll");
    for (var i = 0; i < scrollers.length; i++) {
      var scroller = scrollers[i];
      if (scroller.scrollWidth <= scroller.clientWidth) { continue; }
      var section = scroller.closest(".bracket-section");
      if (section) { section.classList.add("overflows"); }
      var current = scroller.querySelector(".bracket-round.current");
      if (!current) { continue; }
      if (scroller.clientWidth < 2 * current.offsetWidth) {
        scroller.scrollLeft = current.offsetLeft;  // a phone: the round in play first
      } else {
        // A wide screen: as little as needed to show the round in play and the next one.
        var next = current.nextElementSibling || current;
        var right = next.offsetLeft + next.offsetWidth;
        scroller.scrollLeft = Math.min(current.offsetLeft, Math.max(0, right - scroller.clientWidth));
      }
    }
  }

  var regions = document.querySelectorAll("[data-live-url]");
  for (var i = 0; i < regions.length; i++) { watch(regions[i]); }
  showCurrentRound(document);
})();
