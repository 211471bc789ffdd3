// Every route answers a method it does not have with 405 in the spec's error shape (Next's own
// 405 has an empty body and none of the API's headers), and OPTIONS with its real methods.
import { describe, expect, it } from "vitest";
import { api, call } from "../helpers/api";
import { discoverRoutes } from "../helpers/fuzz-routes";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
// The catch-all answers every method with a JSON 404: it has no "other" methods.
const routes = (await discoverRoutes()).filter((r) => r.template !== "/api/[...path]");

/** The template with every parameter filled in: "/api/trees/[treeId]" → "/api/trees/x". */
const pathOf = (template: string) =>
  template.replace(/\[\.\.\.(\w+)\]/g, "x/y").replace(/\[(\w+)\]/g, "x");

describe.each(routes)("$template", (route) => {
  const own = METHODS.filter((m) => route.handlers.includes(m));
  const allow = [...own, ...(own.includes("GET") ? ["HEAD"] : []), "OPTIONS"];
  const others = METHODS.filter((m) => !own.includes(m));

  it.each(others)("answers %s with 405 and Allow", async (method) => {
    const body = method === "GET" ? undefined : {};
    const response = await call(method, pathOf(route.template), { body });
    expect(response.status).toBe(405);
    expect(response.body).toEqual({
      errors: [{ detail: `This address does not take ${method}. It takes ${allow.join(", ")}.` }],
    });
    expect(response.headers.get("allow")).toBe(allow.join(", "));
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });

  it("answers OPTIONS with 204 and its own methods", async () => {
    const response = await call("OPTIONS", pathOf(route.template));
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toBe(allow.join(", "));
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

it("leaves a route's own methods alone", async () => {
  expect((await api.get("/api/version")).status).toBe(200);
});
