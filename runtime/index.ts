// The public face of the simulated control plane (see ../shared/DESIGN.md section 2 and
// docs/ARCHITECTURE.md). Labs, the site and tests import the runtime only from here.
export {};
