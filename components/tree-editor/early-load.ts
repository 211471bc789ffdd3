/**
 * The editor's load, started by an inline script in the server-rendered page.
 *
 * The editor asks for `/api/trees/{id}?fields=canvas` (canvasTreeUrl, ADR 038: the tree with its
 * people as the canvas draws them) when its module runs, which is
 * after the page's scripts have been downloaded and parsed: on a cold load that is 400 to 700 ms
 * after the HTML arrived. This script runs as soon as the HTML is parsed and sends the same
 * request (same URL, same bearer header). It then stands in front of `window.fetch` and hands
 * the response, once, to the first identical GET (the editor's `api()` call), which reads it
 * exactly as it would have read its own: errors, 403 logout and all. Anything else goes to the
 * real fetch. After it is taken, or after EARLY_LOAD_MAX_AGE, fetch is put back.
 *
 * A body nobody reads stops in the browser's pipe after a few hundred KB: a big tree would only
 * finish arriving once the editor asked for it. So each 2xx body is read at once into
 * a blob (which the browser fills off the main thread) and handed on as an equal Response.
 *
 * It mirrors the editor's own early load (tree-editor.tsx): the same path match, the same ids,
 * only with a token in localStorage. A plain string so that what the tests run is what ships;
 * ES2017 without helpers, and it never throws.
 */
export const EARLY_LOAD_MAX_AGE = 10_000;

export const EARLY_LOAD_SCRIPT = `(function (w) {
  try {
    var token = w.localStorage.getItem("token");
    var match = /^\\/trees\\/([^/]+)\\/?$/.exec(w.location.pathname);
    if (!token || !match) return;
    var id = encodeURIComponent(decodeURIComponent(match[1]));
    if (id === "create" || id === "import") return;
    var auth = "Bearer " + token;
    var realFetch = w.fetch;
    var pending = new Map();
    var readNow = function (response) {
      if (!response.ok || response.status === 204) return response;
      return response.blob().then(function (body) {
        return new w.Response(body, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      });
    };
    ["/api/trees/" + id + "?fields=canvas"].forEach(function (url) {
      var response = realFetch.call(w, url, { headers: { authorization: auth } }).then(readNow);
      response.catch(function () {});
      pending.set(url, response);
    });
    var release = function () {
      pending.clear();
      if (w.fetch === earlyFetch) w.fetch = realFetch;
    };
    var sameRequest = function (init) {
      if (!init || (init.method || "GET") !== "GET" || init.body != null || init.signal) return false;
      var headers = init.headers;
      if (!headers || typeof headers !== "object" || Array.isArray(headers)) return false;
      if (typeof Headers !== "undefined" && headers instanceof Headers) return false;
      var names = Object.keys(headers);
      return names.length === 1 && names[0] === "authorization" && headers.authorization === auth;
    };
    var earlyFetch = function (input, init) {
      var response = typeof input === "string" ? pending.get(input) : undefined;
      if (response && sameRequest(init)) {
        pending.delete(input);
        if (pending.size === 0) release();
        return response;
      }
      return realFetch.call(w, input, init);
    };
    w.fetch = earlyFetch;
    w.setTimeout(release, ${EARLY_LOAD_MAX_AGE});
  } catch (error) {
    // Without the early requests the editor simply makes its own.
  }
})(window);`;
