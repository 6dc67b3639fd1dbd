/** The two token endpoints: the platform's OIDC token endpoint and the edge API's own (spec Part 1 "Authentication", facts §2). */
import { z } from "zod";
import { defineArea } from "./endpoint";

export const OIDC_TOKEN_PATH = "/auth/realms/svc/protocol/openid-connect/token";

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

export const EdgeTokenRequest = z.object({ username: z.string().min(1).max(256), password: z.string().min(1).max(1024) });
export const EdgeTokenResponse = z.object({ access_token: z.string(), expires_in: z.number().int(), token_type: z.literal("Bearer") });

const endpoint = defineArea("auth", "auth");

export const auth = {
  token: endpoint({
    id: "auth.token",
    method: "POST",
    effect: "action",
    path: OIDC_TOKEN_PATH,
    permission: null,
    summary: "Issue tokens (grant types password, client_credentials, refresh_token); form-encoded",
    bodyKind: "form",
    body: TokenRequest,
    success: { status: 200, body: TokenResponse },
    errors: [400, 401],
    mutates: false,
  }),
  edgeToken: endpoint({
    id: "auth.edgeToken",
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
};
