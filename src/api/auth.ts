/**
 * Authentication: the platform's OIDC token and logout endpoints, the instance metadata document that
 * names them, and the edge API's own token endpoint (spec Part 1 "Authentication", facts §2).
 */
import { z } from "zod";
import { area, endpoint } from "./endpoint";

/** The auth server's base path and realm, as the metadata document names them. */
export const AUTH_PATH = "auth";
export const REALM = "svc";
export const OIDC_TOKEN_PATH = `/${AUTH_PATH}/realms/${REALM}/protocol/openid-connect/token`;
export const OIDC_LOGOUT_PATH = `/${AUTH_PATH}/realms/${REALM}/logout`;
/** Keycloak's own logout endpoint, which OIDC libraries call (the vendor's previous client does). */
export const OIDC_PROTOCOL_LOGOUT_PATH = `/${AUTH_PATH}/realms/${REALM}/protocol/openid-connect/logout`;

export const TokenRequest = z.discriminatedUnion(
  "grant_type",
  [
    z.object({
      grant_type: z.literal("password"),
      username: z.string().min(1).max(256),
      password: z.string().min(1).max(1024),
      client_id: z.string().min(1).max(256),
      client_secret: z.string().max(1024).optional(),
      totp: z.string().max(16).optional(),
      scope: z.string().max(1024).optional(),
    }),
    z.object({
      grant_type: z.literal("client_credentials"),
      client_id: z.string().min(1).max(256),
      client_secret: z.string().min(1).max(1024),
      scope: z.string().max(1024).optional(),
    }),
    z.object({
      grant_type: z.literal("refresh_token"),
      refresh_token: z.string().min(1).max(8192),
      client_id: z.string().min(1).max(256),
      client_secret: z.string().max(1024).optional(),
    }),
  ],
  { message: "grant_type must be one of password, client_credentials, refresh_token" },
);

export const TokenResponse = z.object({
  access_token: z.string(),
  expires_in: z.number().int(),
  refresh_expires_in: z.number().int(),
  refresh_token: z.string(),
  token_type: z.literal("Bearer"),
  "not-before-policy": z.number().int(),
  session_state: z.string(),
  scope: z.string(),
});

/** Ends the session a refresh token belongs to (facts §2 "Logout"); form-encoded. */
export const LogoutRequest = z.object({
  client_id: z.string().min(1).max(256),
  refresh_token: z.string().min(1).max(8192),
  client_secret: z.string().max(1024).optional(),
});

/**
 * The instance metadata document (`GET /metadata`): where the vendor's clients learn the auth
 * server's address, base path and realm before they log in. They build the token endpoint as
 * `{authentication.url}/{authentication.path}/realms/{authentication.realm}/protocol/openid-connect/token`.
 */
export const InstanceMetadata = z.object({
  api: z.object({ url: z.string(), docs: z.string() }),
  authentication: z.object({ url: z.string(), path: z.string(), realm: z.string(), logout_path: z.string() }),
});

export const EdgeTokenRequest = z.object({ username: z.string().min(1).max(256), password: z.string().min(1).max(1024) });
export const EdgeTokenResponse = z.object({ access_token: z.string(), expires_in: z.number().int(), token_type: z.literal("Bearer") });

const logoutEndpoint = (path: string, summary: string) =>
  endpoint({
    method: "POST",
    effect: "action",
    path,
    root: true,
    permission: null,
    summary,
    bodyKind: "form",
    body: LogoutRequest,
    success: { status: 204 },
    errors: [400],
    mutates: false,
  });

export const auth = area("auth", "auth", {
  token: endpoint({
    method: "POST",
    effect: "action",
    path: OIDC_TOKEN_PATH,
    root: true,
    permission: null,
    summary: "Issue tokens (grant types password, client_credentials, refresh_token); form-encoded",
    bodyKind: "form",
    body: TokenRequest,
    success: { status: 200, body: TokenResponse },
    errors: [400, 401],
    mutates: false,
  }),
  logout: logoutEndpoint(OIDC_LOGOUT_PATH, "End the session of a refresh token (the path the metadata document names); form-encoded"),
  protocolLogout: logoutEndpoint(OIDC_PROTOCOL_LOGOUT_PATH, "End the session of a refresh token (the OIDC protocol's path); form-encoded"),
  metadata: endpoint({
    method: "GET",
    effect: "read",
    path: "/metadata",
    root: true,
    permission: null,
    summary: "The instance metadata document: the auth server's URL, base path and realm, read by clients before they log in",
    success: { status: 200, body: InstanceMetadata },
    errors: [],
  }),
  edgeToken: endpoint({
    method: "POST",
    effect: "action",
    path: "/auth/token/get",
    permission: null,
    summary: "Issue an edge API token to a pre-registered local user (form fields or a JSON body)",
    bodyKind: "form",
    body: EdgeTokenRequest,
    success: { status: 200, body: EdgeTokenResponse },
    errors: [400, 401],
    mutates: false,
  }),
});
