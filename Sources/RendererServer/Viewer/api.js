// The server's JSON API: requests, and its errors as exceptions.

import { t } from "./i18n.js";

/** A JSON API error as an exception whose message is the server's. */
export class APIError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const api = {
  base(id) {
    return "/api/documents/" + encodeURIComponent(id);
  },
  /**
   * The response to a request for `path`; throws an APIError with the server's code and
   * message when it refuses, and one saying so in words (`unreachable`) when the server
   * cannot be reached (stopped, or the network gone). A request given up is an AbortError.
   */
  async request(path, options = {}) {
    let response;
    try {
      response = await fetch(path, { credentials: "same-origin", ...options });
    } catch (error) {
      if (error.name === "AbortError") throw error;
      throw new APIError(0, "unreachable", t("server.unreachable"));
    }
    if (!response.ok) {
      let code = "http-" + response.status;
      let message = response.statusText;
      try {
        const body = await response.json();
        code = body.error.code;
        message = body.error.message;
      } catch (_) { /* not JSON */ }
      throw new APIError(response.status, code, message);
    }
    return response;
  },
  async json(path, options) {
    const response = await this.request(path, options);
    return response.status === 204 ? null : response.json();
  },
  send(path, method, body) {
    return this.json(path, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  },
};
