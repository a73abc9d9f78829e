import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnnounceContext } from '../context';
import { renderInShadow } from '../test/renderInShadow';
import { Spinner } from './Spinner';

describe('Spinner', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('[spec 9.spinner-delay] [spec 2.spinner-delay] appears after 100 ms and says "Loading" through the live region that was there before it', () => {
    const announce = vi.fn();
    const view = renderInShadow(
      <AnnounceContext.Provider value={announce}>
        <Spinner />
      </AnnounceContext.Provider>,
    );
    expect(view.$('.cb-spinner')).toBeNull();
    act(() => vi.advanceTimersByTime(99));
    expect(view.$('.cb-spinner')).toBeNull();
    expect(announce).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(view.$('.cb-spinner')).not.toBeNull();
    expect(announce).toHaveBeenCalledWith('Loading…');
    // the spinner itself is no status of its own: a region inserted with its text is not announced
    expect(view.$('[role=status]')).toBeNull();
    view.unmount();
  });
});
