// The EndpointSlice controller's public pieces.
export { EndpointSliceController, type EndpointSliceControllerOptions } from './controller.ts';
export { reconcileEndpointSlices } from './reconcile.ts';
export { CONTROLLER_NAME as ENDPOINTSLICE_CONTROLLER_NAME, LABEL_HEADLESS, LABEL_MANAGED_BY, LABEL_SERVICE_NAME, MAX_ENDPOINTS_PER_SLICE, canonical, podToEndpoint, queueServiceChanges, endpointPorts, findPort } from './endpoints.ts';
export { SliceWriter, type SliceChanges } from './slice-writer.ts';
