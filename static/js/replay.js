// The game replay: step through the placements with the buttons, the slider, the timeline or the
// keyboard (left/right arrows, Home, End). The server draws every tile once, each tagged with its
// placement number (data-step); this script only shows the tiles up to the chosen step, marks
// the current one and redraws the hands from the page's JSON (json_script, no inline script:
// the Content-Security-Policy allows scripts from 'self' only). Without it the page shows the end.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var source = document.getElementById("replay-data");
  if (!root || !source) { return; }
  var data = JSON.parse(source.textContent);
  var words = data.words;
  var steps = data.steps;
  var illegal = data.illegal;
  var total = steps.length + (illegal ? 1 : 0);
  var board = document.getElementById("replay-board");
  var tiles = board ? Array.prototype.slice.call(board.querySelectorAll("g.tile")) : [];
  var slider = document.getElementById("replay-step");
  var count = document.getElementById("replay-count");
  var caption = document.getElementById("replay-caption");
  var hands = document.getElementById("replay-hands");
  var marks = Array.prototype.slice.call(root.querySelectorAll(".timeline button"));
  var svgNS = "http://www.w3.org/2000/svg";
  var current = total;

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, key) { return String(values[key]); });
  }

  function handsAt(k) {
    if (k === 0 || !steps.length) { return data.start_hands; }
    return steps[Math.min(k, steps.length) - 1].hands;
  }

  function tileIcon(tile) {
    var svg = document.createElementNS(svgNS, "svg");
    svg.setAttribute("class", "hand-tile");
    svg.setAttribute("viewBox", "0 0 62 54");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", data.tile_labels[tile]);
    var use = document.createElementNS(svgNS, "use");
    use.setAttribute("href", "#tile-" + tile);
    use.setAttribute("width", "62");
    use.setAttribute("height", "54");
    svg.appendChild(use);
    return svg;
  }

  function drawHands(k) {
    var held = handsAt(k);
    var mover = k > 0 && k <= steps.length ? steps[k - 1].seat : (illegal && k === total ? illegal.seat : -1);
    hands.textContent = "";
    data.names.forEach(function (name, seat) {
      var row = document.createElement("div");
      row.className = "hand" + (seat === mover ? " mover" : "");
      row.setAttribute("data-seat", seat);
      var label = document.createElement("span");
      label.className = "hand-name colour-" + data.colours[seat];
      label.textContent = name;
      var set = document.createElement("span");
      set.className = "hand-tiles";
      if (held[seat].length) {
        held[seat].forEach(function (tile) { set.appendChild(tileIcon(tile)); });
      } else {
        var none = document.createElement("span");
        none.className = "muted";
        none.textContent = words.empty_hand;
        set.appendChild(none);
      }
      row.appendChild(label);
      row.appendChild(set);
      hands.appendChild(row);
    });
  }

  function describe(k) {
    if (k === 0) { return words.start; }
    if (illegal && k === illegal.number) {
      return fill(words.illegal, {rule: illegal.rule, reason: illegal.reason});
    }
    var step = steps[k - 1];
    // Written on the server: a language may inflect the words around the tile's number.
    var text = data.step_texts[k - 1];
    if (step.forced) { text += " · " + words.forced; }
    if (step.endgame) { text += " · " + words.endgame; }
    if (data.valid && k === total) { text += ". " + words.end; }
    return text;
  }

  function show(k) {
    k = Math.max(0, Math.min(total, k));
    current = k;
    tiles.forEach(function (g) {
      var n = Number(g.getAttribute("data-step"));
      g.classList.toggle("hidden-step", n > k);
      g.classList.toggle("current", n === k);
    });
    if (board) {
      board.classList.toggle("at-end", data.valid && k === total);
      board.setAttribute("data-shown", String(Math.min(k, steps.length)));
    }
    marks.forEach(function (mark) {
      var n = Number(mark.getAttribute("data-step"));
      mark.classList.toggle("done", n <= k);
      if (n === k) { mark.setAttribute("aria-current", "step"); } else { mark.removeAttribute("aria-current"); }
    });
    slider.value = String(k);
    count.textContent = k + " / " + total;
    caption.textContent = describe(k);
    drawHands(k);
  }

  root.querySelectorAll("[data-go]").forEach(function (button) {
    button.addEventListener("click", function () {
      var go = button.getAttribute("data-go");
      show(go === "first" ? 0 : go === "last" ? total : go === "next" ? current + 1 : current - 1);
    });
  });
  marks.forEach(function (mark) {
    mark.addEventListener("click", function () { show(Number(mark.getAttribute("data-step"))); });
  });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (target === slider || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable) { return; }
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var moves = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: total};
    if (Object.prototype.hasOwnProperty.call(moves, event.key)) {
      event.preventDefault();
      show(moves[event.key]);
    }
  });

  document.getElementById("replay-controls").hidden = false;
  root.classList.add("scripted");
  show(total);
})();
