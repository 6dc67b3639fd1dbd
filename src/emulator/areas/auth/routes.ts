/** Authentication: the OIDC grants and logout, the metadata document that names them, the edge API's token endpoint. */
import { AUTH_PATH, OIDC_LOGOUT_PATH, REALM, auth as ep } from "../../../api/auth";
import { ApiError, errors } from "../../../api/errors";
import { BUILTIN_CLIENTS, BUILTIN_USERS, EDGE_USERS, type Auth, type Identity } from "./model";
import { route, type AreaModule, type Handler } from "../../handler";

/**
 * OIDC errors carry the spec's body plus the OAuth2 `error` fields generic OIDC clients read:
 * refused credentials are INVALID_GRANT (401), a refused refresh token BAD_REQUEST (400).
 */
function oidcError(kind: typeof errors.INVALID_GRANT | typeof errors.BAD_REQUEST, error: string, description: string): ApiError {
  const err = kind(description);
  return err.withBody({ ...err.toBody(), error, error_description: description });
}

/** The identity of a refresh token; a refused one is the OIDC `invalid_grant` (400). */
function refreshed(auth: Auth, token: string): Identity {
  try {
    return auth.refresh(token);
  } catch (e) {
    throw oidcError(errors.BAD_REQUEST, "invalid_grant", e instanceof ApiError ? e.messages[0] : "refresh token is invalid");
  }
}

/**
 * Logout checks the refresh token and answers 204. Tokens are stateless (signed, not stored): logging
 * out ends nothing the emulator keeps, so the refresh token stays usable until it expires.
 */
const logout: Handler<typeof ep.logout> = (ctx) => {
  refreshed(ctx.auth, ctx.body.refresh_token);
  return { status: 204 };
};

export const area: AreaModule = {
  routes: [
    route(ep.token, (ctx) => {
      const b = ctx.body;
      if (b.grant_type === "password") {
        const user = Object.prototype.hasOwnProperty.call(BUILTIN_USERS, b.username) ? BUILTIN_USERS[b.username] : undefined;
        if (!user || user.password !== b.password) throw oidcError(errors.INVALID_GRANT, "invalid_grant", "invalid user credentials");
        if (user.clientId && user.clientId !== b.client_id)
          throw oidcError(errors.INVALID_GRANT, "unauthorized_client", `client '${b.client_id}' may not log in users; use client_id '${user.clientId}'`);
        return ctx.auth.issue(user.identity, b.client_id);
      }
      if (b.grant_type === "client_credentials") {
        const client = Object.prototype.hasOwnProperty.call(BUILTIN_CLIENTS, b.client_id) ? BUILTIN_CLIENTS[b.client_id] : undefined;
        if (!client || client.secret !== b.client_secret) throw oidcError(errors.INVALID_GRANT, "invalid_client", "invalid client credentials");
        return ctx.auth.issue(client.identity, b.client_id);
      }
      return ctx.auth.issue(refreshed(ctx.auth, b.refresh_token), b.client_id);
    }),
    route(ep.logout, logout),
    route(ep.protocolLogout, logout),
    route(ep.metadata, (ctx) => ({
      api: { url: ctx.baseUrl, docs: "/api/v4/openapi.json" },
      authentication: { url: ctx.baseUrl, path: AUTH_PATH, realm: REALM, logout_path: OIDC_LOGOUT_PATH },
    })),
    route(ep.edgeToken, (ctx) => {
      const user = Object.prototype.hasOwnProperty.call(EDGE_USERS, ctx.body.username) ? EDGE_USERS[ctx.body.username] : undefined;
      if (!user || user.password !== ctx.body.password) throw errors.INVALID_GRANT("invalid edge user credentials");
      return ctx.auth.issueEdge(user.identity);
    }),
  ],
};
