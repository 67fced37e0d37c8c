import { type ComponentPropsWithoutRef, useEffect, useRef } from 'react';

type MediaVideoProps = Omit<ComponentPropsWithoutRef<'video'>, 'src'> & {
  stream: MediaStream | null;
  /** An audio output device id (HTMLMediaElement.setSinkId), where the browser supports choosing. */
  sinkId?: string;
};

/** A <video> showing a MediaStream (React has no attribute for srcObject). */
export function MediaVideo({ stream, sinkId, ...props }: MediaVideoProps) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video || video.srcObject === stream) return;
    video.srcObject = stream;
    // Autoplay can be refused; the Connect click normally counts as the gesture that allows it.
    if (stream) video.play?.()?.catch(() => undefined);
  }, [stream]);
  useEffect(() => {
    const video = ref.current as (HTMLVideoElement & { setSinkId?: (id: string) => Promise<void> }) | null;
    if (video?.setSinkId && sinkId !== undefined) void video.setSinkId(sinkId).catch(() => undefined);
  }, [sinkId]);
  return <video ref={ref} autoPlay playsInline {...props} />;
}
