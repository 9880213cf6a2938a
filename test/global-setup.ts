// Global set-up for the whole suite. Fixtures that must be shared across test files
// (real sshd instances) register their start/stop here.
export async function setup(): Promise<void> {}
export async function teardown(): Promise<void> {}
