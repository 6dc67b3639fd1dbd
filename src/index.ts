/** pulumi-svc: Pulumi resources, a typed client and an emulator for the platform HTTP API v4. */
export { endpoints } from "./api/endpoints";
