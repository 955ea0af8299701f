// The JSON API, as the pages use it: the session cookie authenticates (same site), errors come
// back as {status, error, message} and are thrown as ApiError with the server's message.  Every
// request names the page's language: the server words its answers in it (whose turn, results,
// seat labels, option help).
import { lang, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

export async function api(method, path, body) {
  /** @type {any} */
  const options = { method, credentials: "same-origin", headers: { "Accept-Language": lang } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (e) {
    throw new ApiError(0, { message: t("The server cannot be reached") });
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = { message: text }; }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body = {}) => api("POST", path, body);
