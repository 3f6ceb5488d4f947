// The cost-aware reward is defined in the contracts module (the studio explains its terms).
export * from '../../contracts/reward.ts';
