export { default } from '../../tooling/config/vitest.config.ts';
