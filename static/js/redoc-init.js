// The API reference (/api/redoc/): starts Redoc on the schema named by the container. A file,
// not an inline script, so that the page runs under the site's Content-Security-Policy.
(function () {
  "use strict";
  var container = document.getElementById("redoc-container");
  var settings = JSON.parse(container.getAttribute("data-settings") || "{}");
  Redoc.init(container.getAttribute("data-schema-url"), settings, container);
})();
