// The Endpoints controller's public pieces.
export { EndpointsController, ENDPOINTS_CONTROLLER_NAME, type EndpointsControllerOptions } from './controller.ts';
export {
  LAST_CHANGE_TRIGGER_TIME_ANNOTATION, MAX_ENDPOINTS_CAPACITY, OVER_CAPACITY_ANNOTATION,
  compareAddresses, computeSubsets, podToEndpointAddress, repackSubsets, shouldPodBeInEndpoints, truncateSubsets,
} from './subsets.ts';
export { TriggerTimeTracker } from './trigger-time.ts';
