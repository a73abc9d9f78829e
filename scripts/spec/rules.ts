import { rules as s1 } from './section1';
import { rules as s2 } from './section2';
import { rules as s3 } from './section3';
import { rules as s4 } from './section4';
import { rules as s5 } from './section5';
import { rules as s6 } from './section6';
import { rules as s7 } from './section7';
import { rules as s8 } from './section8';
import { rules as s9 } from './section9';
import type { SpecRule } from './types';

export const specRules: SpecRule[] = [...s1, ...s2, ...s3, ...s4, ...s5, ...s6, ...s7, ...s8, ...s9];

export const sectionTitles: Record<string, string> = {
  '1': 'What the product does and for whom',
  '2': 'Screens and routes',
  '3': 'Entities and their fields',
  '4': 'States and transitions',
  '5': 'Validation rules',
  '6': 'Roles and permissions',
  '7': 'The calls the product makes',
  '8': 'Error catalogue',
  '9': 'Business constants and limits',
};
