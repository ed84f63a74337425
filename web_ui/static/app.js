/* tilewatch: live updates for pages that already work without JavaScript.
 *
 * - Follows /api/events (server-sent events). On every change it re-fetches
 *   each [data-live] region's server-rendered fragment and swaps it in, so
 *   the page is drawn by one renderer (the server's templates).
 * - Refreshes [data-refresh] camera snapshots every few seconds while the
 *   page is visible.
 * - The calibration wizard's corner handles can be dragged (see wizard()).
 * Nothing is fetched from anywhere but this companion.
 */
(function () {
  "use strict";
  var body = document.body;
  var dot = document.getElementById("live-dot");
  var regions = Array.prototype.slice.call(document.querySelectorAll("[data-live]"));
  var pending = null;
  var busy = false;
  var again = false;

  function setDot(state) {
    if (!dot) return;
    dot.className = "dot " + state;
    dot.title = dot.getAttribute("data-" + state) || "";
  }

  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    var jobs = regions.map(function (el) {
      return fetch(el.getAttribute("data-live"), { headers: { "X-Fragment": "1" }, cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (html) { el.innerHTML = html; })
        .catch(function () { /* keep what is shown; the next change retries */ });
    });
    Promise.all(jobs).then(function () {
      busy = false;
      body.setAttribute("data-shown", body.getAttribute("data-version") || "");
      document.dispatchEvent(new CustomEvent("tilewatch:refreshed"));
      if (again) { again = false; refresh(); }
    });
  }

  function schedule() {
    if (!regions.length) return;
    if (pending) clearTimeout(pending);
    pending = setTimeout(function () { pending = null; refresh(); }, 60);
  }

  if (window.EventSource) {
    var since = body.getAttribute("data-version") || "";
    var es = new EventSource("/api/events" + (since ? "?last_event_id=" + encodeURIComponent(since) : ""));
    es.onopen = function () { setDot("on"); };
    es.onerror = function () { setDot("off"); };
    es.onmessage = function (e) {
      var msg;
      try { msg = JSON.parse(e.data); } catch (err) { return; }
      body.setAttribute("data-version", msg.id || "");
      // The calibration wizard is not a live region (its handles are being
      // dragged): a new calibration picture reloads the page once.
      if (msg.kind === "calibration" && msg.data && msg.data.change === "snapshot" &&
          document.getElementById("calibrate")) {
        window.location.reload();
        return;
      }
      schedule();
    };
  }

  function refreshImages() {
    if (document.hidden) return;
    Array.prototype.forEach.call(document.querySelectorAll("img[data-refresh]"), function (img) {
      img.src = img.getAttribute("data-refresh") + "?n=" + Date.now();
    });
  }
  setInterval(refreshImages, 3000);

  /* Calibration wizard: drag the four corner handles; the hidden inputs of
     the form get the new picture coordinates, and the lines follow. */
  function wizard(root) {
    var svg = root.querySelector("svg");
    var img = root.querySelector("img");
    if (!svg || !img) return;
    var handles = Array.prototype.slice.call(svg.querySelectorAll(".handle"));
    var outline = svg.querySelector(".gridline");
    var drag = null;
    function point(ev) {
      var box = svg.getBoundingClientRect();
      var vb = svg.viewBox.baseVal;
      return [(ev.clientX - box.left) * vb.width / box.width, (ev.clientY - box.top) * vb.height / box.height];
    }
    function update() {
      var pts = handles.map(function (h) { return h.getAttribute("cx") + "," + h.getAttribute("cy"); });
      if (outline) outline.setAttribute("points", pts.join(" "));
      handles.forEach(function (h, i) {
        var x = document.getElementById("corner-" + i + "-x");
        var y = document.getElementById("corner-" + i + "-y");
        if (x) x.value = Math.round(parseFloat(h.getAttribute("cx")) * 10) / 10;
        if (y) y.value = Math.round(parseFloat(h.getAttribute("cy")) * 10) / 10;
      });
    }
    handles.forEach(function (h) {
      h.addEventListener("pointerdown", function (ev) { drag = h; h.setPointerCapture(ev.pointerId); ev.preventDefault(); });
      h.addEventListener("pointermove", function (ev) {
        if (drag !== h) return;
        var p = point(ev);
        h.setAttribute("cx", p[0]); h.setAttribute("cy", p[1]);
        update();
      });
      h.addEventListener("pointerup", function () { drag = null; });
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll(".wizard"), wizard);
})();
