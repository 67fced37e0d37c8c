import { vi } from 'vitest';

/** jsdom has no media: the little of MediaStreamTrack and MediaStream the video code uses. */
export class FakeTrack {
  enabled = true;
  stop = vi.fn();
  constructor(
    public kind: 'audio' | 'video',
    private deviceId = `${kind}-default`,
  ) {}
  getSettings() {
    return { deviceId: this.deviceId };
  }
}

export class FakeMediaStream {
  private tracks: FakeTrack[];
  constructor(tracks: FakeTrack[] = []) {
    this.tracks = [...tracks];
  }
  getTracks() {
    return [...this.tracks];
  }
  getAudioTracks() {
    return this.tracks.filter((track) => track.kind === 'audio');
  }
  getVideoTracks() {
    return this.tracks.filter((track) => track.kind === 'video');
  }
  addTrack(track: FakeTrack) {
    this.tracks.push(track);
  }
  removeTrack(track: FakeTrack) {
    this.tracks = this.tracks.filter((entry) => entry !== track);
  }
}
