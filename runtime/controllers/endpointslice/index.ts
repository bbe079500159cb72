// The EndpointSlice controller's public pieces.
export { EndpointSliceController, type EndpointSliceControllerOptions } from './controller.ts';
export { reconcileEndpointSlices, type SliceChanges } from './reconcile.ts';
export { CONTROLLER_NAME as ENDPOINTSLICE_CONTROLLER_NAME, LABEL_MANAGED_BY, LABEL_SERVICE_NAME, MAX_ENDPOINTS_PER_SLICE, podToEndpoint, endpointPorts, findPort } from './endpoints.ts';
