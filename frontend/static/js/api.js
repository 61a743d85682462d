// JSON over fetch for the practice and replay pages. Every answer comes back as
// { ok, status, data }: a refusal is data to show, not an exception, and a
// network failure is status 0 with a message a person can read.

import { gettext, interpolate } from "./i18n.js";

export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

export async function api(url, { method = "GET", body = undefined } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") headers["X-CSRFToken"] = csrfToken();
  let response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    return { ok: false, status: 0, data: { code: "network", message: gettext("No connection to the server. Check your network and try again.") } };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = { code: "bad_response", message: interpolate(gettext("The server answered %(status)s without details."), { status: response.status }, true) };
  }
  return { ok: response.ok, status: response.status, data };
}

/** A client move id: unique per intention, reused only to retry that intention. */
export function moveId() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
