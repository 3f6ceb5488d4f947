// Guest code, run first in every hook runtime (QuickJS, a global script): a silent console and a
// seeded Math.random, reseeded by __begin for every episode so hook code is as deterministic as
// the environment. Nothing here may reach the host: the host offers only __hostState / __hostInfo.
globalThis.console = { log() {}, info() {}, warn() {}, error() {}, debug() {} };
let __rand = 0x9e3779b9;
Math.random = () => {
  __rand ^= __rand << 13;
  __rand >>>= 0;
  __rand ^= __rand >>> 17;
  __rand ^= __rand << 5;
  __rand >>>= 0;
  return __rand / 4294967296;
};
function __reseed(seed) {
  __rand = seed >>> 0 || 0x9e3779b9;
}
