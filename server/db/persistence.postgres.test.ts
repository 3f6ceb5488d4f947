import { persistenceSuite } from './persistence.suite.ts';

persistenceSuite('postgres');
