// Hostile input on every route, the even ones (fuzzRoutes.ts says what is sent and what is asserted);
// fuzz-odd.test.ts takes the odd ones.
import { fuzzRoutes } from './fuzzRoutes.ts';

fuzzRoutes(0, 'fuzz.test.ts');
