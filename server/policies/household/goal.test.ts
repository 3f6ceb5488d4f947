import { describe, expect, it } from 'vitest';
import { parseGoal, requiredState } from './goal.ts';
import {
  isNothingHappens,
  parseList,
  parseObjectState,
  parseReceptacleView,
  parseRoom,
  typeOf,
} from './observation.ts';

describe('household goal parser', () => {
  it.each([
    ['put a mug in cabinet', { kind: 'pick', object: 'mug', receptacle: 'cabinet' }],
    [
      'put some spraybottle on toilet.',
      { kind: 'pick', object: 'spraybottle', receptacle: 'toilet' },
    ],
    ['look at statue under the floorlamp', { kind: 'look', object: 'statue', toggle: 'floorlamp' }],
    ['examine the book with the desklamp', { kind: 'look', object: 'book', toggle: 'desklamp' }],
    ['put a clean egg in countertop', { kind: 'clean', object: 'egg', receptacle: 'countertop' }],
    [
      'clean some cloth and put it in bathtubbasin',
      { kind: 'clean', object: 'cloth', receptacle: 'bathtubbasin' },
    ],
    [
      'put a hot potato in diningtable',
      { kind: 'heat', object: 'potato', receptacle: 'diningtable' },
    ],
    [
      'heat some mug and put it in coffeemachine',
      { kind: 'heat', object: 'mug', receptacle: 'coffeemachine' },
    ],
    ['put a cool tomato in microwave', { kind: 'cool', object: 'tomato', receptacle: 'microwave' }],
    [
      'cool some bread and put it in countertop',
      { kind: 'cool', object: 'bread', receptacle: 'countertop' },
    ],
    ['put two candle in countertop', { kind: 'pick2', object: 'candle', receptacle: 'countertop' }],
    [
      'find two pillow and put them in sofa',
      { kind: 'pick2', object: 'pillow', receptacle: 'sofa' },
    ],
  ])('%s', (text, expected) => {
    expect(parseGoal(text)).toEqual(expected);
  });

  it('reads the goal out of a full first observation and rejects other text', () => {
    const obs =
      '-= Welcome to TextWorld, ALFRED! =-\n\nYou are in the middle of a room.\n\nYour task is to: put a hot apple in fridge.';
    expect(parseGoal(obs)).toEqual({ kind: 'heat', object: 'apple', receptacle: 'fridge' });
    expect(parseGoal('make 24 from 1 2 3 4')).toBeUndefined();
    expect(requiredState({ kind: 'cool', object: 'x' })).toBe('cool');
    expect(requiredState({ kind: 'pick2', object: 'x' })).toBeUndefined();
  });
});

describe('household observation parser', () => {
  it('parses lists, rooms and receptacle views', () => {
    expect(parseList('a mug 1, an apple 2, and a knife 1')).toEqual([
      'mug 1',
      'apple 2',
      'knife 1',
    ]);
    expect(parseList('a mug 1 and a cup 2.')).toEqual(['mug 1', 'cup 2']);
    expect(parseList('nothing')).toEqual([]);
    expect(
      parseRoom(
        'You are in the middle of a room. Looking quickly around you, you see a cabinet 1, and a toaster 1.\n\nYour task is to: x.',
      ),
    ).toEqual(['cabinet 1', 'toaster 1']);
    expect(parseReceptacleView('You arrive at drawer 2. The drawer 2 is closed.')).toEqual({
      receptacle: 'drawer 2',
      state: 'closed',
      contents: [],
    });
    expect(
      parseReceptacleView('You open the fridge 1. The fridge 1 is open. In it, you see an egg 1.'),
    ).toEqual({ receptacle: 'fridge 1', state: 'open', contents: ['egg 1'] });
    expect(parseReceptacleView('You arrive at shelf 1. On the shelf 1, you see nothing.')).toEqual({
      receptacle: 'shelf 1',
      state: 'surface',
      contents: [],
    });
    expect(isNothingHappens('Nothing happens.')).toBe(true);
    expect(isNothingHappens('You arrive at shelf 1.')).toBe(false);
    expect(typeOf('alarmclock 3')).toBe('alarmclock');
    expect(parseObjectState('This is a hot and clean mug 1.')).toEqual({
      hot: true,
      cool: false,
      clean: true,
    });
    expect(parseObjectState('This is a cold apple 2.')).toEqual({
      hot: false,
      cool: true,
      clean: false,
    });
  });
});
