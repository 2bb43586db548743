// The camera's reader of a phone's answer QR code (phones.js): BarcodeDetector where the browser has it,
// else jsQR (vendor/jsQR.js, loaded on first use). Answers a function video -> the code's text or null.
export async function qrReader() {
  if ("BarcodeDetector" in window) {
    const detector = new BarcodeDetector({ formats: ["qr_code"] });
    return async (video) => ((await detector.detect(video))[0] || {}).rawValue || null;
  }
  if (!window.jsQR) {
    await new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = "vendor/jsQR.js";
      script.onload = resolve;
      script.onerror = () => reject(new Error("the QR reader did not load"));
      document.head.append(script);
    });
  }
  const canvas = document.createElement("canvas");
  return async (video) => {
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    if (!canvas.width) return null;
    const context = canvas.getContext("2d", { willReadFrequently: true });
    context.drawImage(video, 0, 0);
    const image = context.getImageData(0, 0, canvas.width, canvas.height);
    const found = window.jsQR(image.data, image.width, image.height);
    return found ? found.data : null;
  };
}
