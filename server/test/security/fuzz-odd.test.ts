// Hostile input on every route, the odd ones (fuzzRoutes.ts says what is sent and what is asserted);
// fuzz.test.ts takes the even ones.
import { fuzzRoutes } from './fuzzRoutes.ts';

fuzzRoutes(1, 'fuzz-odd.test.ts');
