// Zoom and pan for knockout brackets (templates/tournaments/_bracket.html).
//
// The zoom is the CSS property `zoom` on the bracket's grid, set through the custom property
// --bracket-zoom, so the scrolling area follows the scaled size and panning is plain scrolling.
// Ways in: the −, +, actual size and whole bracket buttons; Ctrl (or ⌘) with the mouse wheel,
// which is also what a touchpad's pinch sends; a two-finger pinch on a touch screen; the keys
// +, − and 0 while the bracket has the focus. Dragging with the mouse moves the bracket around.
//
// Everything is delegated from the document: the live region (live.js) replaces the bracket
// while an event runs, and the zoom chosen survives the swap (kept per bracket section).
// A file, not an inline script: the Content-Security-Policy allows scripts from 'self' only.
(function () {
  "use strict";
  var MIN = 0.3, MAX = 2, STEP = 1.25;
  var zooms = {};  // bracket section id -> zoom

  function sectionOf(node) { return node && node.closest ? node.closest(".bracket-section") : null; }
  function keyOf(section) { return section.getAttribute("aria-labelledby") || "bracket"; }
  function zoomOf(section) { return zooms[keyOf(section)] || 1; }

  // Set a section's zoom, keeping the point (x, y) of its window where it was (the window's
  // middle when none is given).
  function setZoom(section, zoom, x, y) {
    var scroller = section.querySelector(".bracket-scroll");
    var grid = section.querySelector(".bracket-grid");
    if (!scroller || !grid) { return; }
    zoom = Math.min(MAX, Math.max(MIN, zoom));
    var before = zoomOf(section);
    if (x === undefined) { x = scroller.clientWidth / 2; y = scroller.clientHeight / 2; }
    var ratio = zoom / before;
    var left = (scroller.scrollLeft + x) * ratio - x;
    var top = (scroller.scrollTop + y) * ratio - y;
    zooms[keyOf(section)] = zoom;
    apply(section);
    scroller.scrollLeft = left;
    scroller.scrollTop = top;
  }

  function apply(section) {
    var zoom = zoomOf(section);
    var grid = section.querySelector(".bracket-grid");
    if (grid) { grid.style.setProperty("--bracket-zoom", String(zoom)); }
    var level = section.querySelector(".bracket-zoom-level");
    if (level) { level.textContent = Math.round(zoom * 100) + "%"; }
  }

  // Every round across the window's width (never larger than actual size): measured at
  // actual size, where the grid is as wide as its rounds' narrowest columns allow.
  function fit(section) {
    var scroller = section.querySelector(".bracket-scroll");
    var grid = section.querySelector(".bracket-grid");
    if (!scroller || !grid) { return; }
    zooms[keyOf(section)] = 1;
    apply(section);
    zooms[keyOf(section)] = Math.max(MIN, Math.min(1, scroller.clientWidth / Math.max(1, grid.scrollWidth)));
    apply(section);
    scroller.scrollLeft = 0;
    scroller.scrollTop = 0;
  }

  function setUp(root) {
    var sections = root.querySelectorAll(".bracket-section");
    for (var i = 0; i < sections.length; i++) {
      var tools = sections[i].querySelector(".bracket-tools");
      if (tools) { tools.hidden = false; }
      apply(sections[i]);
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-bracket-zoom]") : null;
    if (!button) { return; }
    var section = sectionOf(button);
    if (!section) { return; }
    var action = button.getAttribute("data-bracket-zoom");
    if (action === "in") { setZoom(section, zoomOf(section) * STEP); }
    else if (action === "out") { setZoom(section, zoomOf(section) / STEP); }
    else if (action === "reset") { setZoom(section, 1); }
    else if (action === "fit") { fit(section); }
  });

  document.addEventListener("wheel", function (event) {
    if (!(event.ctrlKey || event.metaKey)) { return; }  // a plain wheel scrolls, as everywhere
    var scroller = event.target.closest ? event.target.closest(".bracket-scroll") : null;
    if (!scroller) { return; }
    event.preventDefault();  // not the browser's page zoom
    var box = scroller.getBoundingClientRect();
    var section = sectionOf(scroller);
    var factor = Math.exp(-event.deltaY / 300);
    setZoom(section, zoomOf(section) * factor, event.clientX - box.left, event.clientY - box.top);
  }, {passive: false});

  document.addEventListener("keydown", function (event) {
    var scroller = event.target.closest ? event.target.closest(".bracket-scroll") : null;
    if (!scroller || event.ctrlKey || event.metaKey || event.altKey) { return; }
    var section = sectionOf(scroller);
    if (event.key === "+" || event.key === "=") { setZoom(section, zoomOf(section) * STEP); }
    else if (event.key === "-") { setZoom(section, zoomOf(section) / STEP); }
    else if (event.key === "0") { setZoom(section, 1); }
    else { return; }
    event.preventDefault();
  });

  // Two fingers: the zoom follows the distance between them, about the point between them.
  var pinch = null;
  function distance(touches) {
    var dx = touches[0].clientX - touches[1].clientX, dy = touches[0].clientY - touches[1].clientY;
    return Math.sqrt(dx * dx + dy * dy);
  }
  document.addEventListener("touchstart", function (event) {
    var scroller = event.target.closest ? event.target.closest(".bracket-scroll") : null;
    if (!scroller || event.touches.length !== 2) { return; }
    var section = sectionOf(scroller);
    pinch = {section: section, scroller: scroller, distance: distance(event.touches), zoom: zoomOf(section)};
  }, {passive: true});
  document.addEventListener("touchmove", function (event) {
    if (!pinch || event.touches.length !== 2) { return; }
    event.preventDefault();
    var box = pinch.scroller.getBoundingClientRect();
    var x = (event.touches[0].clientX + event.touches[1].clientX) / 2 - box.left;
    var y = (event.touches[0].clientY + event.touches[1].clientY) / 2 - box.top;
    setZoom(pinch.section, pinch.zoom * distance(event.touches) / pinch.distance, x, y);
  }, {passive: false});
  document.addEventListener("touchend", function (event) {
    if (event.touches.length < 2) { pinch = null; }
  });

  // Dragging with the mouse pans; a drag that moved does not also follow the link under it.
  var drag = null, dragged = false;
  document.addEventListener("pointerdown", function (event) {
    if (event.pointerType !== "mouse" || event.button !== 0) { return; }
    var scroller = event.target.closest ? event.target.closest(".bracket-scroll") : null;
    if (!scroller) { return; }
    drag = {scroller: scroller, x: event.clientX, y: event.clientY,
            left: scroller.scrollLeft, top: scroller.scrollTop, moved: false};
    dragged = false;
  });
  document.addEventListener("pointermove", function (event) {
    if (!drag) { return; }
    var dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 6) { return; }
    drag.moved = true;
    drag.scroller.classList.add("panning");
    drag.scroller.scrollLeft = drag.left - dx;
    drag.scroller.scrollTop = drag.top - dy;
  });
  document.addEventListener("pointerup", function () {
    if (!drag) { return; }
    dragged = drag.moved;
    drag.scroller.classList.remove("panning");
    drag = null;
  });
  document.addEventListener("click", function (event) {
    if (dragged && event.target.closest && event.target.closest(".bracket-scroll")) {
      event.preventDefault();
    }
    dragged = false;
  }, true);
  document.addEventListener("dragstart", function (event) {
    if (event.target.closest && event.target.closest(".bracket-scroll")) { event.preventDefault(); }
  });

  document.addEventListener("live:updated", function (event) { setUp(event.target); });
  setUp(document);
})();
