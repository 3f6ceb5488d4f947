import { persistenceSuite } from './persistence.suite.ts';

persistenceSuite('pglite');
