// The server's JSON API: requests, and its errors as exceptions.

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
  async request(path, options = {}) {
    const response = await fetch(path, { credentials: "same-origin", ...options });
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
