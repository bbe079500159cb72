// The EndpointSlice mirroring controller's public pieces.
export { EndpointSliceMirroringController, type EndpointSliceMirroringOptions } from './controller.ts';
export { MAX_ENDPOINTS_PER_SUBSET, MIRRORING_CONTROLLER_NAME, SKIP_MIRROR_LABEL, desiredSlices, reconcileMirrored, shouldMirror } from './mirror.ts';
