import { fireEvent } from '@testing-library/dom';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderInShadow } from '../test/renderInShadow';
import { OtpInput } from './OtpInput';

const cellsOf = (view: ReturnType<typeof renderInShadow>) => view.$$<HTMLInputElement>('.cb-otp-cell');
const values = (view: ReturnType<typeof renderInShadow>) => cellsOf(view).map((c) => c.value).join('');

function type(cell: HTMLInputElement, text: string) {
  act(() => {
    fireEvent.change(cell, { target: { value: text } });
  });
}

describe('OtpInput', () => {
  it('[spec 5.otp-cells] [spec 9.otp-length] [spec 2.email-otp] [spec 4.otp-auto-submit] has six cells and submits by itself once six digits are in', () => {
    const done = vi.fn();
    const view = renderInShadow(<OtpInput onComplete={done} />);
    const cells = cellsOf(view);
    expect(cells).toHaveLength(6);
    '12345'.split('').forEach((digit, i) => type(cells[i]!, digit));
    expect(done).not.toHaveBeenCalled();
    type(cells[5]!, '6');
    expect(done).toHaveBeenCalledWith('123456');
    view.unmount();
  });

  it('[spec 5.otp-cells] ignores anything but digits', () => {
    const view = renderInShadow(<OtpInput onComplete={() => undefined} />);
    type(cellsOf(view)[0]!, 'a');
    expect(values(view)).toBe('');
    view.unmount();
  });

  it('[spec 5.otp-long-input] takes the first six characters of a longer paste, only when they are digits', () => {
    const done = vi.fn();
    const view = renderInShadow(<OtpInput onComplete={done} />);
    const [first] = cellsOf(view);
    act(() => {
      fireEvent.paste(first!, { clipboardData: { getData: () => '98765432' } });
    });
    expect(values(view)).toBe('987654');
    expect(done).toHaveBeenCalledWith('987654');
    view.unmount();

    const other = renderInShadow(<OtpInput onComplete={done} />);
    act(() => {
      fireEvent.paste(cellsOf(other)[0]!, { clipboardData: { getData: () => '12a456' } });
    });
    expect(values(other)).toBe('');
    other.unmount();
  });

  it('[spec 5.otp-keys] moves back with backspace on an empty cell and with the arrow keys', () => {
    const view = renderInShadow(<OtpInput onComplete={() => undefined} />);
    const cells = cellsOf(view);
    type(cells[0]!, '1');
    type(cells[1]!, '2');
    act(() => {
      fireEvent.keyDown(cells[2]!, { key: 'Backspace' });
    });
    expect(values(view)).toBe('1');
    expect(view.shadow.activeElement).toBe(cells[1]);
    act(() => {
      fireEvent.keyDown(cells[1]!, { key: 'ArrowLeft' });
    });
    expect(view.shadow.activeElement).toBe(cells[0]);
    act(() => {
      fireEvent.keyDown(cells[0]!, { key: 'ArrowRight' });
    });
    expect(view.shadow.activeElement).toBe(cells[1]);
    // on a filled cell, backspace clears that cell only
    type(cells[1]!, '7');
    act(() => {
      fireEvent.keyDown(cells[1]!, { key: 'Backspace' });
    });
    expect(cellsOf(view).map((c) => c.value)).toEqual(['1', '', '', '', '', '']);
    view.unmount();
  });

  it('[spec 4.otp-error-clears] clears the cells and focuses the first one when an error arrives', () => {
    const view = renderInShadow(<OtpInput onComplete={() => undefined} />);
    const cells = cellsOf(view);
    '123456'.split('').forEach((digit, i) => type(cells[i]!, digit));
    view.rerender(<OtpInput onComplete={() => undefined} error="The code is invalid or expired" errorKey={1} />);
    expect(values(view)).toBe('');
    expect(view.shadow.activeElement).toBe(cells[0]);
    expect(view.$('[role=alert]')?.textContent).toBe('The code is invalid or expired');
    view.unmount();
  });

  it('offers the one-time-code autofill on every cell and describes each cell by the error', () => {
    const view = renderInShadow(<OtpInput onComplete={() => undefined} error="The code is invalid or expired" errorKey={1} />);
    const error = view.$('[role=alert]')!;
    for (const cell of cellsOf(view)) {
      expect(cell.autocomplete).toBe('one-time-code');
      expect(cell.getAttribute('aria-describedby')).toBe(error.id);
    }
    view.unmount();
  });

  it('keeps the focus in its cell while the code is checked, and takes no input then', () => {
    const done = vi.fn();
    const view = renderInShadow(<OtpInput onComplete={done} />);
    const cells = cellsOf(view);
    '12345'.split('').forEach((digit, i) => type(cells[i]!, digit));
    type(cells[5]!, '6');
    view.rerender(<OtpInput onComplete={done} busy />);
    expect(cells[5]!.disabled).toBe(false);
    expect(view.shadow.activeElement).toBe(cells[5]);
    act(() => {
      fireEvent.keyDown(cells[5]!, { key: 'Backspace' });
    });
    expect(values(view)).toBe('123456');
    view.unmount();
  });
});
