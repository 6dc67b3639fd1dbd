/** The contract of the platform API v4: the endpoint table, the error catalog and each area's zod models. */
export { areas, endpoints, endpointById } from "./endpoints";
export type { AnyEndpoint, Confirm, ConfirmReader, CreateInput, Effect, Endpoint, ListConvention } from "./endpoint";
export { fillPath } from "./endpoint";
export { ApiError, ErrorCode } from "./errors";
export { openApiDocument } from "./openapi";
export * as common from "./common";
export * as acps from "./acps";
export * as appregistry from "./appregistry";
export * as apps from "./apps";
export * as assets from "./assets";
export * as bridges from "./bridges";
export * as clusters from "./clusters";
export * as datalabels from "./datalabels";
export * as datatypes from "./datatypes";
export * as instance from "./instance";
export * as parameters from "./parameters";
export * as schedules from "./schedules";
export * as workloads from "./workloads";
